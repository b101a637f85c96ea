import { readFile } from "node:fs/promises";
import { extname, join, normalize, sep } from "node:path";
import type { Context } from "hono";
import { OPEN_COMMAND_META } from "@coffer/protocol";

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".json": "application/json",
  ".woff2": "font/woff2",
  ".map": "application/json",
};

const NOT_BUILT = `<!doctype html><meta charset="utf-8"><title>Coffer</title>
<body>
<h1>Coffer is running</h1><p>The web app has not been built. Run <code>npm start</code> from the repository
root (it builds everything), or use the <code>coffer</code> CLI.</p></body>`;

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

/** index.html with the sign-in command the page's hints name (its <meta>, read by the page). */
function withOpenCommand(index: Buffer, openCommand: string): string {
  const meta = `<meta name="${OPEN_COMMAND_META}" content="${escapeHtml(openCommand)}">`;
  const html = index.toString("utf8");
  return html.includes("</head>") ? html.replace("</head>", `${meta}</head>`) : meta + html;
}

/** The built single-page app: files by path, index.html for every client route. */
export function webAssets(root: string | null, openCommand = "coffer open") {
  return async (c: Context) => {
    if (!root) return c.html(NOT_BUILT);
    const path = normalize(decodeURIComponent(new URL(c.req.url).pathname)).replace(/^([/\\])+/, "");
    const file = join(root, path);
    if (!file.startsWith(root + sep) && file !== root) return c.notFound();
    const ext = extname(file);
    if (ext && TYPES[ext] && path !== "index.html") {
      const body = await readFile(file).catch(() => null);
      if (body) {
        const immutable = path.startsWith("assets/");
        return c.body(body, 200, {
          "content-type": TYPES[ext]!,
          "cache-control": immutable ? "public, max-age=31536000, immutable" : "no-cache",
        });
      }
      if (path.startsWith("assets/")) return c.notFound();
    }
    const index = await readFile(join(root, "index.html")).catch(() => null);
    return index ? c.body(withOpenCommand(index, openCommand), 200, { "content-type": TYPES[".html"]!, "cache-control": "no-cache" }) : c.html(NOT_BUILT);
  };
}
