import type { HLJSApi } from "highlight.js";

let hljs: HLJSApi | null = null;
let loading: Promise<HLJSApi> | null = null;
const listeners = new Set<() => void>();

/** The highlighter is lazy: the first closed code fence loads it; messages re-render once it lands. */
export function loadHighlighter(): Promise<HLJSApi> {
  loading ??= (async () => {
    const [core, ts, js, json, bash, py, diff, css, xml, yaml, go, rust, sql] = await Promise.all([
      import("highlight.js/lib/core"),
      import("highlight.js/lib/languages/typescript"),
      import("highlight.js/lib/languages/javascript"),
      import("highlight.js/lib/languages/json"),
      import("highlight.js/lib/languages/bash"),
      import("highlight.js/lib/languages/python"),
      import("highlight.js/lib/languages/diff"),
      import("highlight.js/lib/languages/css"),
      import("highlight.js/lib/languages/xml"),
      import("highlight.js/lib/languages/yaml"),
      import("highlight.js/lib/languages/go"),
      import("highlight.js/lib/languages/rust"),
      import("highlight.js/lib/languages/sql"),
    ]);
    const h = core.default;
    const langs = { typescript: ts, javascript: js, json, bash, python: py, diff, css, xml, yaml, go, rust, sql };
    for (const [name, mod] of Object.entries(langs)) h.registerLanguage(name, mod.default);
    h.registerAliases(["ts", "tsx"], { languageName: "typescript" });
    h.registerAliases(["js", "jsx", "mjs"], { languageName: "javascript" });
    h.registerAliases(["sh", "shell", "zsh", "console"], { languageName: "bash" });
    h.registerAliases(["py"], { languageName: "python" });
    h.registerAliases(["html", "svg"], { languageName: "xml" });
    h.registerAliases(["yml"], { languageName: "yaml" });
    hljs = h;
    for (const l of listeners) l();
    return h;
  })().catch((err: unknown) => {
    loading = null; // a chunk fetch fails while the daemon restarts: the next code fence asks again
    throw err;
  });
  return loading;
}

export function highlighter(): HLJSApi | null {
  return hljs;
}

export function onHighlighterReady(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
