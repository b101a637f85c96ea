import { z } from "zod";

// ---- Gateway tools (coffer__list_skills, coffer__load_skill) --------------------

export const ListSkillsInput = z.object({});
export type ListSkillsInput = z.infer<typeof ListSkillsInput>;

export const ListSkillsOutput = z.object({
  skills: z.array(z.object({ name: z.string(), description: z.string() })),
});
export type ListSkillsOutput = z.infer<typeof ListSkillsOutput>;

export const LoadSkillInput = z.object({
  name: z.string().max(200).describe("The skill's name, as coffer__list_skills lists it."),
});
export type LoadSkillInput = z.infer<typeof LoadSkillInput>;

export const LoadSkillOutput = z.object({
  name: z.string(),
  content: z.string().describe("The whole SKILL.md: frontmatter and body."),
});
export type LoadSkillOutput = z.infer<typeof LoadSkillOutput>;

// ---- REST ------------------------------------------------------------------------

/** A skill folder as the owner sees it: malformed ones are listed with their problem. */
export const SkillOut = z.object({
  folder: z.string().describe("The skill's folder name under <data dir>/skills."),
  name: z.string().nullable(),
  description: z.string().nullable(),
  problem: z.string().nullable().describe("Why the skill is left out of the agents' catalogue; null when it is fine."),
});
export type SkillOut = z.infer<typeof SkillOut>;

export const SkillListOut = z.object({ skills: z.array(SkillOut) });
export type SkillListOut = z.infer<typeof SkillListOut>;

export const SkillDetailOut = SkillOut.extend({ content: z.string() });
export type SkillDetailOut = z.infer<typeof SkillDetailOut>;

export const SkillImportIn = z.object({
  path: z.string().min(1).max(4096).describe("A skill folder (holding SKILL.md) or a folder of skill folders, on the daemon's machine."),
  overwrite: z.boolean().optional().describe("Replace skills that already exist (default: skip them)."),
});
export type SkillImportIn = z.infer<typeof SkillImportIn>;

export const SkillImportOut = z.object({
  imported: z.array(SkillOut),
  skipped: z.array(z.object({ folder: z.string(), problem: z.string() })),
});
export type SkillImportOut = z.infer<typeof SkillImportOut>;

/** A skill's name, as its frontmatter and its folder carry it. */
export const SkillName = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, "use letters, digits, '.', '_' and '-' (up to 64), starting with a letter or digit");

/** A skill written in the page: the daemon writes its SKILL.md (frontmatter from name and description, then the body). */
export const SkillCreate = z.object({
  name: SkillName,
  description: z.string().trim().min(1, "say when an agent should use this skill").max(1024),
  body: z.string().max(512 * 1024).describe("The SKILL.md body in markdown, below the frontmatter."),
});
export type SkillCreate = z.infer<typeof SkillCreate>;
