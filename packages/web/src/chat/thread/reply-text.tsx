import { memo, useEffect, useReducer } from "react";

/**
 * The reply renderer (markdown.tsx: marked + DOMPurify + the highlighter hook) is its own chunk,
 * fetched as the Chat opens (`loadReplyRenderer` in chat-layout.tsx) so the first load stays
 * within its budget (scripts/check-bundle.mjs refuses marked and DOMPurify in it). Until it lands
 * a reply shows as plain, escaped text in the same `.markdown` frame (one block per paragraph),
 * so the row keeps roughly its height and nothing unsafe is ever put into the DOM.
 */
type Renderer = typeof import("./markdown.js");

let renderer: Renderer | null = null;
let pending: Promise<Renderer> | null = null;
const waiting = new Set<() => void>();

export function loadReplyRenderer(): Promise<Renderer> {
  pending ??= import("./markdown.js").then(
    (m) => {
      renderer = m;
      for (const wake of [...waiting]) wake();
      waiting.clear();
      return m;
    },
    (err: unknown) => {
      pending = null; // a later render tries again (a chunk fetch can fail once, e.g. a daemon restart)
      throw err;
    },
  );
  return pending;
}

function PlainReply({ text }: { text: string }) {
  return (
    <div className="markdown">
      {text.split(/\n{2,}/).map((para, i) => (
        <div key={i} className="md-block">
          <p className="md-plain">{para}</p>
        </div>
      ))}
    </div>
  );
}

/** A reply's Markdown: the real renderer once its chunk has landed, plain text until then. */
export const Markdown = memo(function Markdown({ text, streaming }: { text: string; streaming: boolean }) {
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  useEffect(() => {
    if (renderer) return undefined;
    waiting.add(rerender);
    loadReplyRenderer().catch(() => undefined);
    return () => void waiting.delete(rerender);
  }, []);
  if (!renderer) return <PlainReply text={text} />;
  const Real = renderer.Markdown;
  return <Real text={text} streaming={streaming} />;
});
