import type { ReactNode } from "react";

/** The search snippet with its [matches] as <mark>, escaping nothing by hand (React does). */
export function Snippet({ text }: { text: string }) {
  const parts: ReactNode[] = [];
  const re = /\[([^[\]]+)\]/g;
  let last = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (m.index > last) parts.push(text.slice(last, m.index));
    parts.push(<mark key={m.index}>{m[1]}</mark>);
    last = m.index + m[0].length;
  }
  parts.push(text.slice(last));
  return <span>{parts}</span>;
}
