import DOMPurify, { type Config } from "dompurify";
import { Lexer, Marked, type Token, type Tokens } from "marked";
import { memo, useEffect, useMemo, useReducer, type MouseEvent } from "react";
import { highlighter, loadHighlighter, onHighlighterReady } from "./highlighter.js";

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

DOMPurify.addHook("afterSanitizeAttributes", (node) => {
  if (node.tagName === "A") {
    node.setAttribute("target", "_blank");
    node.setAttribute("rel", "noopener noreferrer");
  }
});

/**
 * A reply may not make the page fetch anything by itself: a prompt-injected model could put
 * the conversation into an image address on a host it controls. So no element or attribute
 * that loads on its own survives (style, media, srcset, background…), and every image that
 * is not inline (`data:`/`blob:`) becomes a link the owner may click. The page's CSP is the
 * backstop (docs/decisions.md, "Page security headers").
 */
const PURIFY: Config & { RETURN_DOM: true } = {
  USE_PROFILES: { html: true },
  FORBID_TAGS: ["style", "link", "meta", "base", "video", "audio", "source", "picture", "track", "iframe", "object", "embed", "form", "input"],
  FORBID_ATTR: ["style", "srcset", "background", "poster", "ping", "action", "formaction"],
  // DOMPurify's default URI rule, plus blob: (a page-made image, never a remote fetch).
  ALLOWED_URI_REGEXP: /^(?:(?:(?:f|ht)tps?|mailto|tel|callto|sms|cid|xmpp|matrix|blob):|[^a-z]|[a-z+.\-]+(?:[^a-z+.\-:]|$))/i,
  RETURN_DOM: true,
};

const isInlineImage = (src: string) => /^(data|blob):/i.test(src.trim());

/** The link that stands in for a remote image: its alt text (or address), opened only on a click. */
function imageLink(img: HTMLImageElement): HTMLElement {
  const doc = img.ownerDocument;
  const src = img.getAttribute("src")?.trim() ?? "";
  const label = img.getAttribute("alt")?.trim() || src || "image";
  // Inside a link already (a linked image), or with no usable address: the label alone.
  const el = src && !img.closest("a") ? doc.createElement("a") : doc.createElement("span");
  el.className = "md-image-link";
  el.textContent = label;
  if (el.tagName === "A") {
    el.setAttribute("href", src);
    el.setAttribute("target", "_blank");
    el.setAttribute("rel", "noopener noreferrer");
    el.setAttribute("title", `Image not loaded — opens ${src} in a new tab`);
  }
  return el;
}

/** Sanitized HTML for one block. DOMPurify's document is inert (no browsing context), so nothing in it loads. */
export function sanitizeReplyHtml(html: string): string {
  const body = DOMPurify.sanitize(html, PURIFY);
  for (const img of Array.from(body.querySelectorAll("img"))) {
    if (!isInlineImage(img.getAttribute("src") ?? "")) img.replaceWith(imageLink(img));
  }
  return body.innerHTML;
}

function codeBlock(text: string, lang: string | undefined, settled: boolean): string {
  const h = settled ? highlighter() : null;
  if (settled && !h) void loadHighlighter().catch(() => undefined); // plain code until a later render loads it
  const language = (lang ?? "").trim().split(/\s/)[0] ?? "";
  const body = h && language && h.getLanguage(language) ? h.highlight(text, { language }).value : escapeHtml(text);
  return (
    `<div class="code-block"><div class="code-head"><span class="code-lang">${escapeHtml(language || "text")}</span>` +
    `<button type="button" class="code-copy" data-copy aria-label="Copy code">Copy</button></div>` +
    `<pre><code class="hljs">${body}</code></pre></div>`
  );
}

// `breaks`: a single line break in a reply is kept (agents write lists of lines without blank
// lines between them; merging them into one paragraph loses what they meant).
const settledMarked = new Marked({ gfm: true, breaks: true, renderer: { code: (t: Tokens.Code) => codeBlock(t.text, t.lang, true) } });
const tailMarked = new Marked({ gfm: true, breaks: true, renderer: { code: (t: Tokens.Code) => codeBlock(t.text, t.lang, false) } });

/**
 * Settled blocks are rendered once and kept (by source, so a row scrolled back into view
 * costs nothing); only the growing tail of a live reply is re-rendered.
 */
const cache = new Map<string, string>();
function renderBlock(token: Token, settled: boolean): string {
  const key = `${highlighter() ? "h" : "p"}${token.raw}`;
  if (settled) {
    const hit = cache.get(key);
    if (hit !== undefined) return hit;
  }
  const m = settled ? settledMarked : tailMarked;
  const html = sanitizeReplyHtml(m.parser([token]));
  if (settled) {
    if (cache.size > 4000) cache.clear();
    cache.set(key, html);
  }
  return html;
}

const blockCache = new Map<string, Token[]>();
/** Top-level markdown blocks (paragraphs, fences, lists…), lexed once per text. */
export function splitBlocks(text: string, settled = true): Token[] {
  let blocks = settled ? blockCache.get(text) : undefined;
  if (!blocks) {
    blocks = Lexer.lex(text, { gfm: true, breaks: true }).filter((t) => t.type !== "space");
    if (settled) {
      if (blockCache.size > 2000) blockCache.clear();
      blockCache.set(text, blocks);
    }
  }
  return blocks;
}

function onCopyClick(e: MouseEvent<HTMLDivElement>) {
  const button = (e.target as HTMLElement).closest<HTMLButtonElement>("[data-copy]");
  const code = button?.closest(".code-block")?.querySelector("code");
  if (!button || !code) return;
  void navigator.clipboard?.writeText(code.textContent ?? "");
  button.textContent = "Copied";
  button.setAttribute("aria-live", "polite");
  setTimeout(() => (button.textContent = "Copy"), 1500);
}

/** Markdown with code highlighting. While `streaming`, the last block may be half-written. */
export const Markdown = memo(function Markdown({ text, streaming }: { text: string; streaming: boolean }) {
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  const hasCode = text.includes("```") || text.includes("~~~");
  useEffect(() => (hasCode && !highlighter() ? onHighlighterReady(rerender) : undefined), [hasCode]);
  const blocks = useMemo(() => splitBlocks(text, !streaming), [text, streaming]);
  if (blocks.length > 0 && text.split("\n", 2001).length > 2000) return <pre className="plain-long">{text}</pre>;
  return (
    <div className="markdown" onClick={onCopyClick}>
      {blocks.map((token, i) => (
        <div
          key={i}
          className="md-block"
          dangerouslySetInnerHTML={{ __html: renderBlock(token, !(streaming && i === blocks.length - 1)) }}
        />
      ))}
    </div>
  );
});
