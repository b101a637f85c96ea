import type { BuiltinToolRegistry } from "../gateway/builtin-tools.js";
import type { Knowledge } from "./knowledge.js";
import { knowledgeTools } from "./knowledge-tools.js";
import type { MemoryService } from "./memory.js";
import { memoryTools } from "./memory-tools.js";
import { skillTools } from "./skill-tools.js";
import type { SkillService } from "./skills.js";

export interface VaultServices {
  readonly skills: SkillService;
  readonly memory: MemoryService;
  readonly knowledge: Knowledge;
}

/** Puts every vault tool (skills, memory, knowledge) in the gateway's builtin registry. */
export function registerVaultTools(registry: BuiltinToolRegistry, vault: VaultServices): void {
  for (const tool of [...skillTools(vault.skills), ...memoryTools(vault.memory), ...knowledgeTools(vault.knowledge)]) registry.register(tool);
}
