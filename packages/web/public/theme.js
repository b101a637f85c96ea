// Resolve the theme before first paint so a dark desktop never flashes white.
// A file, not an inline script: the page's CSP allows scripts from the daemon only (docs/decisions.md).
(function () {
  var pref = localStorage.getItem("coffer.theme") || "system";
  var dark = pref === "dark" || (pref === "system" && matchMedia("(prefers-color-scheme: dark)").matches);
  document.documentElement.dataset.theme = dark ? "dark" : "light";
})();
