import DOMPurify from "dompurify";
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

function codeBlock(text: string, lang: string | undefined, settled: boolean): string {
  const h = settled ? highlighter() : null;
  if (settled && !h) void loadHighlighter();
  const language = (lang ?? "").trim().split(/\s/)[0] ?? "";
  const body = h && language && h.getLanguage(language) ? h.highlight(text, { language }).value : escapeHtml(text);
  return (
    `<div class="code-block"><div class="code-head"><span class="code-lang">${escapeHtml(language || "text")}</span>` +
    `<button type="button" class="code-copy" data-copy aria-label="Copy code">Copy</button></div>` +
    `<pre><code class="hljs">${body}</code></pre></div>`
  );
}

const settledMarked = new Marked({ gfm: true, renderer: { code: (t: Tokens.Code) => codeBlock(t.text, t.lang, true) } });
const tailMarked = new Marked({ gfm: true, renderer: { code: (t: Tokens.Code) => codeBlock(t.text, t.lang, false) } });

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
  const html = DOMPurify.sanitize(m.parser([token]));
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
    blocks = Lexer.lex(text, { gfm: true }).filter((t) => t.type !== "space");
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
