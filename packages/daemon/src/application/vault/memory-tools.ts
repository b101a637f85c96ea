import { ForgetInput, ListMemoryInput, RecallInput, RememberInput, UpdateMemoryInput } from "@coffer/protocol";
import type { BuiltinTool } from "../gateway/builtin-tools.js";
import { gatewayAuthor } from "../gateway/gateway-author.js";
import type { MemoryService } from "./memory.js";
import { toolOutcome } from "../gateway/tool-outcome.js";

/** coffer__remember, recall, update_memory, forget, list_memory. */
export function memoryTools(memory: MemoryService): BuiltinTool[] {
  const remember: BuiltinTool<typeof RememberInput> = {
    name: "remember",
    description:
      "Keep a fact in the owner's memory for later turns and other agents. Scope 'project' (default when cwd is given) ties it to that working directory; 'global' applies everywhere.",
    input: RememberInput,
    readOnly: false,
    run: (args, ctx) =>
      toolOutcome(() => {
        const fact = memory.remember({ ...args, project: args.cwd }, gatewayAuthor(ctx.principal, ctx.caller));
        return { id: fact.id, name: fact.name, scope: fact.scope, status: "created" };
      }),
  };
  const recall: BuiltinTool<typeof RecallInput> = {
    name: "recall",
    description:
      "Search the owner's memory (BM25 keyword search) for facts about a topic. Without a scope it searches global facts and, given cwd, that project's.",
    input: RecallInput,
    readOnly: true,
    run: (args) =>
      toolOutcome(() => memory.recall({ query: args.query, scope: args.scope, project: args.cwd, topK: args.top_k, mode: args.mode })),
  };
  const updateMemory: BuiltinTool<typeof UpdateMemoryInput> = {
    name: "update_memory",
    description: "Replace the text of a remembered fact, by the id coffer__recall or coffer__list_memory gave.",
    input: UpdateMemoryInput,
    readOnly: false,
    run: (args, ctx) =>
      toolOutcome(() => {
        memory.update(args.id, { text: args.text }, gatewayAuthor(ctx.principal, ctx.caller));
        return { id: args.id, status: "updated" };
      }),
  };
  const forget: BuiltinTool<typeof ForgetInput> = {
    name: "forget",
    description: "Delete a remembered fact by id.",
    input: ForgetInput,
    readOnly: false,
    run: (args, ctx) =>
      toolOutcome(() => {
        memory.forget(args.id, gatewayAuthor(ctx.principal, ctx.caller));
        return { id: args.id, status: "forgotten" };
      }),
  };
  const listMemory: BuiltinTool<typeof ListMemoryInput> = {
    name: "list_memory",
    description: "List remembered facts, newest first, with the total count. Without a scope: global facts and, given cwd, that project's.",
    input: ListMemoryInput,
    readOnly: true,
    run: (args) => toolOutcome(() => memory.listForAgent(args.scope, args.cwd, args.limit)),
  };
  return [remember, recall, updateMemory, forget, listMemory] as BuiltinTool[];
}
