import MagicString from "magic-string";
import type { Plugin } from "vite";

/**
 * The protocol's `.describe("…")` texts document the API (the daemon's OpenAPI, the CLI's
 * help); the page never reads a schema's description, yet each text rode into its first load
 * (~9 kB raw). This drops every `.describe(<string literal>)` call — a literal, or literals
 * joined with `+` — from the protocol's sources as the page is built; the schemas themselves are
 * unchanged (a description is metadata only). A call with anything else inside (a template with
 * `${…}`, a name) is left as it is. (docs/decisions.md, "The page's build drops schema descriptions")
 */
const LITERAL = String.raw`(?:"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|\`(?:[^\`\\$]|\\.)*\`)`;
export const DESCRIBE_CALL = new RegExp(String.raw`\.describe\(\s*${LITERAL}(?:\s*\+\s*${LITERAL})*\s*,?\s*\)`, "g");
const PROTOCOL_SOURCE = /[\\/]packages[\\/]protocol[\\/]src[\\/][^?]*\.ts$/;

/** The source without its description calls, and how many went; null when it had none. */
export function stripDescriptions(code: string): { code: MagicString; count: number } | null {
  const s = new MagicString(code);
  let count = 0;
  for (const m of code.matchAll(DESCRIBE_CALL)) {
    s.remove(m.index, m.index + m[0].length);
    count++;
  }
  return count ? { code: s, count } : null;
}

export function stripSchemaDescriptions(): Plugin {
  return {
    name: "coffer:strip-schema-descriptions",
    enforce: "pre", // on the TypeScript as written, before it is transpiled
    apply: "build",
    transform(code, id) {
      if (!PROTOCOL_SOURCE.test(id)) return null;
      const stripped = stripDescriptions(code);
      return stripped && { code: stripped.code.toString(), map: stripped.code.generateMap({ hires: true, source: id }) };
    },
  };
}
