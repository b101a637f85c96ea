/**
 * Discord refuses a message over 2,000 characters (400, code 50035). Long agent output is cut
 * into parts at line boundaries; a part that ends inside a ``` code block closes the fence and
 * the next part reopens it with the same opening line (language kept), so every part renders
 * as valid markdown on its own and no code block is ever broken. A single line longer than a
 * part is hard-cut (never between the two halves of a surrogate pair).
 */

export const DISCORD_MESSAGE_LIMIT = 2000;

const CLOSE = "\n```";
const FENCE = /^\s*```/;

export function splitDiscordText(text: string, limit = DISCORD_MESSAGE_LIMIT): string[] {
  if (text.length <= limit) return [text];
  const parts: string[] = [];
  let current = "";
  /** Whether `current` holds content (a reopened fence alone does not count). */
  let hasContent = false;
  /** The line that opened the code block we are inside, or null outside one. */
  let fence: string | null = null;

  const flush = () => {
    const lines = current.split("\n");
    if (fence !== null && lines.at(-1) === fence) {
      // Cut right after a block opened: the opening moves to the next part whole.
      lines.pop();
      if (lines.length > 0) parts.push(lines.join("\n"));
    } else if (hasContent) {
      parts.push(fence !== null ? current + CLOSE : current);
    }
    current = fence ?? "";
    hasContent = false;
  };
  const joined = (line: string) => (current === "" ? line : `${current}\n${line}`);

  for (const line of text.split("\n")) {
    const toggles = FENCE.test(line);
    if (toggles && fence !== null && !hasContent) {
      // The block closes right where a part was cut: its closing fence already went out.
      current = "";
      fence = null;
      continue;
    }
    const fenceAfter: string | null = toggles ? (fence === null ? line : null) : fence;
    const fits = (s: string) => s.length + (fenceAfter !== null ? CLOSE.length : 0) <= limit;
    if (!fits(joined(line)) && hasContent) flush();
    if (fits(joined(line)) || (current === "" && line === "")) {
      current = joined(line);
      hasContent = true;
      fence = fenceAfter;
      continue;
    }
    // One line longer than a whole part: cut it into pieces that each fill a part.
    let rest = line;
    while (rest.length > 0) {
      const prefix = current === "" ? "" : `${current}\n`;
      const room = limit - prefix.length - (fence !== null ? CLOSE.length : 0);
      let take = Math.min(rest.length, Math.max(1, room));
      const code = rest.charCodeAt(take - 1);
      if (take < rest.length && code >= 0xd800 && code <= 0xdbff && take > 1) take -= 1;
      current = prefix + rest.slice(0, take);
      hasContent = true;
      rest = rest.slice(take);
      if (rest.length > 0) flush();
    }
    fence = fenceAfter;
  }
  if (hasContent) parts.push(fence !== null ? current + CLOSE : current);
  return parts;
}
