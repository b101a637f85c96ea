/**
 * Agent markdown → Telegram HTML blocks. Telegram's HTML accepts only a few tags (b, i, u, s,
 * code, pre, a, blockquote…), so headings become bold lines and lists become "•"/"1." lines.
 * Each block is kept as lines ("units") that are complete HTML on their own, so the splitter
 * can cut a block between lines and re-wrap each piece in the block's open/close tags.
 */
import { Lexer, type Token, type Tokens } from "marked";

/** One line of a block: self-contained HTML, its plain-text twin, and whether it is code. */
export interface Unit {
  readonly html: string;
  readonly text: string;
  readonly code: boolean;
}

/** A block: the splitter may cut it between units, wrapping each piece in `open`/`close`. */
export interface Block {
  readonly open: string;
  readonly close: string;
  readonly units: readonly Unit[];
}

export function escapeHtml(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

function escapeAttr(s: string): string {
  return escapeHtml(s).replace(/"/g, "&quot;");
}

/**
 * The agent's text is untrusted: only web links become tappable. `tg://` (joins a chat, opens a
 * bot with a start parameter, shares the phone number), `mailto:`, `javascript:` and every other
 * scheme stay visible as plain text (docs/decisions.md, "Hardening II: the phone channel").
 */
const SAFE_LINK = /^https?:\/\//i;

interface Inline {
  html: string;
  text: string;
}

function wrap(tag: string, inner: Inline): Inline {
  return { html: `<${tag}>${inner.html}</${tag}>`, text: inner.text };
}

function inline(tokens: readonly Token[] | undefined): Inline {
  let html = "";
  let text = "";
  for (const t of tokens ?? []) {
    const r = inlineToken(t);
    html += r.html;
    text += r.text;
  }
  return { html, text };
}

function inlineToken(t: Token): Inline {
  switch (t.type) {
    case "text": {
      const tt = t as Tokens.Text;
      return tt.tokens ? inline(tt.tokens) : { html: escapeHtml(tt.text), text: tt.text };
    }
    case "escape":
      return { html: escapeHtml(t.text as string), text: t.text as string };
    case "strong":
      return wrap("b", inline((t as Tokens.Strong).tokens));
    case "em":
      return wrap("i", inline((t as Tokens.Em).tokens));
    case "del":
      return wrap("s", inline((t as Tokens.Del).tokens));
    case "codespan": {
      const code = (t as Tokens.Codespan).text;
      return { html: `<code>${escapeHtml(code)}</code>`, text: code };
    }
    case "br":
      return { html: "\n", text: "\n" };
    case "link": {
      const l = t as Tokens.Link;
      const inner = inline(l.tokens);
      if (!SAFE_LINK.test(l.href)) return inner;
      const text = inner.text === l.href ? l.href : `${inner.text} (${l.href})`;
      return { html: `<a href="${escapeAttr(l.href)}">${inner.html}</a>`, text };
    }
    case "image": {
      const img = t as Tokens.Image;
      const label = img.text || img.href;
      if (!SAFE_LINK.test(img.href)) return { html: escapeHtml(label), text: label };
      return { html: `<a href="${escapeAttr(img.href)}">${escapeHtml(label)}</a>`, text: `${label} (${img.href})` };
    }
    case "checkbox":
      // Drawn with the list bullet (listUnits), where marked also reports it.
      return { html: "", text: "" };
    default:
      // Raw inline HTML and anything unknown: shown as typed, never as markup.
      return { html: escapeHtml(t.raw), text: t.raw };
  }
}

/**
 * Inline tokens cut into lines at the newlines of top-level text, so a long paragraph can be
 * split between lines without cutting through a <b>…</b>.
 */
function inlineLines(tokens: readonly Token[] | undefined): Unit[] {
  const lines: Unit[] = [];
  let cur: Inline = { html: "", text: "" };
  const push = () => {
    lines.push({ html: cur.html, text: cur.text, code: false });
    cur = { html: "", text: "" };
  };
  for (const t of tokens ?? []) {
    const plainText = t.type === "text" && !(t as Tokens.Text).tokens;
    if (plainText || t.type === "br") {
      const pieces = t.type === "br" ? ["", ""] : (t as Tokens.Text).text.split("\n");
      pieces.forEach((p, i) => {
        if (i > 0) push();
        cur.html += escapeHtml(p);
        cur.text += p;
      });
    } else if (t.type === "text") {
      // A list item's text block: its own inline tokens, same treatment.
      const inner = inlineLines((t as Tokens.Text).tokens);
      inner.forEach((u, i) => {
        if (i > 0) push();
        cur.html += u.html;
        cur.text += u.text;
      });
    } else {
      const r = inlineToken(t);
      cur.html += r.html;
      cur.text += r.text;
    }
  }
  push();
  return lines;
}

function codeUnits(code: string): Unit[] {
  return code.split("\n").map((line) => ({ html: escapeHtml(line), text: line, code: true }));
}

/** Language names go into a class attribute: keep them to a safe alphabet. */
function codeOpen(lang: string | undefined): string {
  const name = (lang ?? "").trim().split(/\s+/)[0]?.replace(/[^\w#+.-]/g, "") ?? "";
  return name ? `<pre><code class="language-${name}">` : "<pre>";
}

function codeClose(open: string): string {
  return open === "<pre>" ? "</pre>" : "</code></pre>";
}

/** A whole block as one unit (for blocks nested in lists and quotes). */
function asUnits(block: Block): Unit[] {
  if (!block.open) return [...block.units];
  const html = block.open + block.units.map((u) => u.html).join("\n") + block.close;
  const text = block.units.map((u) => u.text).join("\n");
  return [{ html, text, code: false }];
}

function listUnits(list: Tokens.List, depth: number): Unit[] {
  const units: Unit[] = [];
  const indent = "  ".repeat(depth);
  const start = typeof list.start === "number" ? list.start : 1;
  list.items.forEach((item, i) => {
    const bullet = (list.ordered ? `${start + i}. ` : "• ") + (item.task ? (item.checked ? "☑ " : "☐ ") : "");
    let first = true;
    const lead = (u: Unit): Unit => {
      const prefix = first ? indent + bullet : indent + " ".repeat(bullet.length);
      first = false;
      return { html: escapeHtml(prefix) + u.html, text: prefix + u.text, code: false };
    };
    for (const child of item.tokens) {
      if (child.type === "list") {
        units.push(...listUnits(child as Tokens.List, depth + 1));
      } else if (child.type === "text" || child.type === "paragraph") {
        for (const u of inlineLines((child as Tokens.Text).tokens ?? [child])) units.push(lead(u));
      } else if (child.type === "checkbox") {
        continue;
      } else if (child.type !== "space") {
        for (const b of blocks([child])) for (const u of asUnits(b)) units.push(lead(u));
      }
    }
    if (first) units.push(lead({ html: "", text: "", code: false }));
  });
  return units;
}

function blocks(tokens: readonly Token[]): Block[] {
  const out: Block[] = [];
  for (const t of tokens) {
    switch (t.type) {
      case "space":
        break;
      case "heading": {
        const h = inline((t as Tokens.Heading).tokens);
        out.push({ open: "", close: "", units: [{ html: `<b>${h.html}</b>`, text: h.text, code: false }] });
        break;
      }
      case "paragraph":
        out.push({ open: "", close: "", units: inlineLines((t as Tokens.Paragraph).tokens) });
        break;
      case "text": {
        const tt = t as Tokens.Text;
        out.push({ open: "", close: "", units: inlineLines(tt.tokens ?? [tt]) });
        break;
      }
      case "code": {
        const c = t as Tokens.Code;
        const open = codeOpen(c.lang);
        out.push({ open, close: codeClose(open), units: codeUnits(c.text) });
        break;
      }
      case "list":
        out.push({ open: "", close: "", units: listUnits(t as Tokens.List, 0) });
        break;
      case "blockquote": {
        const units: Unit[] = [];
        for (const b of blocks((t as Tokens.Blockquote).tokens)) {
          if (units.length) units.push({ html: "", text: "", code: false });
          units.push(...asUnits(b));
        }
        out.push({ open: "<blockquote>", close: "</blockquote>", units });
        break;
      }
      case "hr":
        out.push({ open: "", close: "", units: [{ html: "———", text: "———", code: false }] });
        break;
      case "table": {
        const tb = t as Tokens.Table;
        const row = (cells: readonly Tokens.TableCell[]) => cells.map((c) => inline(c.tokens).text).join(" | ");
        const lines = [row(tb.header), ...tb.rows.map(row)];
        out.push({ open: "<pre>", close: "</pre>", units: lines.flatMap((l) => codeUnits(l)) });
        break;
      }
      default:
        // Block HTML and anything unknown: shown as typed.
        out.push({ open: "", close: "", units: codeUnits(t.raw.replace(/\n+$/, "")).map((u) => ({ ...u, code: false })) });
    }
  }
  return out;
}

export function markdownBlocks(markdown: string): Block[] {
  try {
    return blocks(Lexer.lex(markdown, { gfm: true }));
  } catch {
    // A lexer bug must not cost the owner the answer: it goes out as escaped plain paragraphs.
    return markdown
      .split(/\n\s*\n/)
      .filter((p) => p.trim())
      .map((p) => ({ open: "", close: "", units: codeUnits(p).map((u) => ({ ...u, code: false })) }));
  }
}
