import { Marked } from "marked";
import type { ReactNode } from "react";
import { sanitizeReplyHtml } from "../../chat/thread/markdown.js";

// Private-use characters stand in for the daemon's [match] brackets while markdown is rendered:
// they pass through marked and the sanitizer as text, then become <mark> in the safe HTML.
const OPEN = "\uE000";
const CLOSE = "\uE001";
const MATCH = /\[([^[\]]+)\]/g;
const snippetMarked = new Marked({ gfm: true, breaks: true });

/** The search snippet with its [matches] as <mark>, escaping nothing by hand (React does). */
export function Snippet({ text }: { text: string }) {
  const parts: ReactNode[] = [];
  let last = 0;
  for (let m = MATCH.exec(text); m; m = MATCH.exec(text)) {
    if (m.index > last) parts.push(text.slice(last, m.index));
    parts.push(<mark key={m.index}>{m[1]}</mark>);
    last = m.index + m[0].length;
  }
  MATCH.lastIndex = 0;
  parts.push(text.slice(last));
  return <span>{parts}</span>;
}

/**
 * A snippet of a markdown document, rendered as markdown (headings, emphasis, lists, code)
 * through the chat's sanitizer, with the matches marked.
 */
export function MarkdownSnippet({ text }: { text: string }) {
  const marked = text.replace(MATCH, `${OPEN}$1${CLOSE}`);
  const html = sanitizeReplyHtml(snippetMarked.parse(marked, { async: false }))
    .replaceAll(OPEN, "<mark>")
    .replaceAll(CLOSE, "</mark>");
  return <div className="markdown snippet-md" dangerouslySetInnerHTML={{ __html: html }} />;
}
