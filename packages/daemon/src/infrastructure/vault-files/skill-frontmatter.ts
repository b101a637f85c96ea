
export type SkillHeader = { readonly name: string; readonly description: string } | { readonly problem: string };

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const DESCRIPTION_MAX = 1024;

/**
 * Reads a SKILL.md's frontmatter: a leading `---` block of YAML holding a string `name` and
 * `description`. Anything else is a problem, said in words the owner can fix from. The YAML
 * parser is loaded on first use, not at the daemon's start (≈ 35 ms; issue 16).
 */
export async function parseSkillHeader(text: string): Promise<SkillHeader> {
  const match = /^\uFEFF?---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(text);
  if (!match) return { problem: "SKILL.md has no frontmatter: it must start with a --- block holding name and description" };
  const { parse, YAMLError } = await import("yaml");
  let data: unknown;
  try {
    data = parse(match[1] ?? "", { prettyErrors: false });
  } catch (err) {
    if (err instanceof YAMLError) return { problem: `frontmatter is not valid YAML: ${err.message.split("\n", 1)[0]}` };
    throw err;
  }
  if (typeof data !== "object" || data === null || Array.isArray(data)) {
    return { problem: "frontmatter must be a YAML mapping with name and description" };
  }
  const { name, description } = data as Record<string, unknown>;
  if (typeof name !== "string" || !name.trim()) return { problem: "frontmatter needs a non-empty string 'name'" };
  if (!NAME.test(name.trim())) return { problem: `name '${name}' may use only letters, digits, '.', '_' and '-' (up to 64)` };
  if (typeof description !== "string" || !description.trim()) return { problem: "frontmatter needs a non-empty string 'description'" };
  if (description.length > DESCRIPTION_MAX) return { problem: `description is longer than ${DESCRIPTION_MAX} characters` };
  return { name: name.trim(), description: description.trim() };
}
