// Runs before the app, as a file and not an inline script: the page's CSP allows scripts from
// the daemon only, and no eval (docs/decisions.md, "Page security headers").
(function () {
  // Resolve the theme before first paint so a dark desktop never flashes white.
  var pref = localStorage.getItem("coffer.theme") || "system";
  var dark = pref === "dark" || (pref === "system" && matchMedia("(prefers-color-scheme: dark)").matches);
  document.documentElement.dataset.theme = dark ? "dark" : "light";
  // zod (the wire schemas) would probe `new Function` as its schemas are built, be refused by
  // the CSP (a violation report on every load) and fall back to its interpreter. It reads this
  // global when it loads, so it takes the interpreter path without the probe.
  var zodConfig = (window.__zod_globalConfig = window.__zod_globalConfig || {});
  zodConfig.jitless = true;
})();
