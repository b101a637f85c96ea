/**
 * Agent or owner text → an FTS5 MATCH expression. Every word is quoted (FTS5 operators in
 * the input stay inert); words of 3+ characters match as prefixes ("deploy" finds
 * "deployment") while shorter ones match whole, since a 1–2 character prefix expands to
 * half the vocabulary. "all" needs every word (AND); "any" ranks chunks holding some (OR).
 */
export function vaultFtsQuery(text: string, mode: "all" | "any"): string | null {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu);
  if (!words?.length) return null;
  const terms = [...new Set(words)].slice(0, 32).map((w) => (w.length >= 3 ? `"${w}"*` : `"${w}"`));
  return terms.join(mode === "all" ? " " : " OR ");
}
