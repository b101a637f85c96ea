/**
 * Agent or owner text → an FTS5 MATCH expression. Every word is quoted, so FTS5 operators
 * in the input stay inert; the porter tokenizer stems each one as it stems the index, so
 * "deployments" finds "deploy" without prefix queries (which expand to every word sharing
 * the prefix and are several times slower). "all" needs every word (AND); "any" ranks rows
 * holding some of them (OR).
 */
export function vaultFtsQuery(text: string, mode: "all" | "any"): string | null {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu);
  if (!words?.length) return null;
  const terms = [...new Set(words)].slice(0, 32).map((w) => `"${w}"`);
  return terms.join(mode === "all" ? " " : " OR ");
}
