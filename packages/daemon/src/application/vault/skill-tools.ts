import { ListSkillsInput, LoadSkillInput } from "@coffer/protocol";
import type { BuiltinTool } from "../gateway/builtin-tools.js";
import type { SkillService } from "./skills.js";
import { toolOutcome } from "../gateway/tool-outcome.js";

/** coffer__list_skills and coffer__load_skill. */
export function skillTools(skills: SkillService): BuiltinTool[] {
  const listSkills: BuiltinTool<typeof ListSkillsInput> = {
    name: "list_skills",
    description:
      "List the owner's skills (reusable instructions for tasks) by name and description. Load one with coffer__load_skill before doing a task it describes.",
    input: ListSkillsInput,
    readOnly: true,
    run: () => toolOutcome(async () => ({ skills: await skills.catalogue() })),
  };
  const loadSkill: BuiltinTool<typeof LoadSkillInput> = {
    name: "load_skill",
    description: "Load a skill's full SKILL.md (frontmatter and instructions) by the name coffer__list_skills gives.",
    input: LoadSkillInput,
    readOnly: true,
    run: async (args) => {
      const found = await skills.load(args.name);
      return found.ok ? { ok: true, value: { name: found.name, content: found.content } } : found;
    },
  };
  return [listSkills, loadSkill] as BuiltinTool[];
}
