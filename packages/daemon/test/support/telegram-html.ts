/**
 * Telegram's HTML parse mode, as strict as Telegram: only its tags, properly nested, only
 * its entities. Used by the fake Bot API (to answer 400 like Telegram) and by the
 * formatter's tests (every part must parse).
 */

const ALLOWED = new Set([
  "b", "strong", "i", "em", "u", "ins", "s", "strike", "del", "span", "tg-spoiler", "a", "code", "pre", "blockquote", "tg-emoji",
]);

const ENTITY = /^&(lt|gt|amp|quot|#\d+|#x[0-9a-fA-F]+);/;

export type ParsedHtml = { ok: true; text: string } | { ok: false; error: string };

function decode(entity: string): string {
  if (entity === "&lt;") return "<";
  if (entity === "&gt;") return ">";
  if (entity === "&amp;") return "&";
  if (entity === "&quot;") return '"';
  const hex = entity.startsWith("&#x");
  return String.fromCodePoint(parseInt(entity.slice(hex ? 3 : 2, -1), hex ? 16 : 10));
}

/** Parses like Telegram; `text` is the message as the phone shows it (tags gone, entities decoded). */
export function parseTelegramHtml(html: string): ParsedHtml {
  const stack: string[] = [];
  let text = "";
  let i = 0;
  const fail = (what: string): ParsedHtml => ({ ok: false, error: `Bad Request: can't parse entities: ${what} at byte offset ${i}` });
  while (i < html.length) {
    const ch = html[i]!;
    if (ch === "&") {
      const m = ENTITY.exec(html.slice(i));
      if (!m) {
        // Telegram tolerates a bare "&" followed by a non-entity: it stays literal.
        text += "&";
        i += 1;
        continue;
      }
      text += decode(m[0]);
      i += m[0].length;
      continue;
    }
    if (ch === ">") return fail('Unexpected ">"');
    if (ch !== "<") {
      text += ch;
      i += 1;
      continue;
    }
    const end = html.indexOf(">", i);
    if (end < 0) return fail("Unclosed start tag");
    const inner = html.slice(i + 1, end);
    const closing = inner.startsWith("/");
    const name = (closing ? inner.slice(1) : inner).trim().split(/\s+/)[0]!.toLowerCase();
    if (!/^[a-z][a-z0-9-]*$/.test(name)) return fail(`Unsupported start tag "${name}"`);
    if (!ALLOWED.has(name)) return fail(`Unsupported ${closing ? "end" : "start"} tag "${name}"`);
    if (closing) {
      const open = stack.pop();
      if (open !== name) return fail(`Unmatched end tag "${name}"${open ? `, expected "</${open}>"` : ""}`);
    } else {
      const attrs = (closing ? "" : inner.slice(name.length)).trim();
      if (attrs && !/^([a-z-]+(="[^"<>]*")?\s*)*$/.test(attrs)) return fail(`Bad attributes of tag "${name}"`);
      if (name === "a" && !/href="[^"]+"/.test(attrs)) return fail('Tag "a" must have attribute "href"');
      if (name === "code" && stack.at(-1) !== "pre" && attrs) return fail('Tag "code" may have a class only inside "pre"');
      stack.push(name);
    }
    i = end + 1;
  }
  if (stack.length) return fail(`Can't find end tag corresponding to start tag "${stack.at(-1)}"`);
  return { ok: true, text };
}
