import { AskInput, type AskOutput, type AskSource } from "@coffer/protocol";
import { resolveEndpoint } from "../connections/endpoint.js";
import { humaniseFailure, redact } from "../connections/failure-messages.js";
import type { Connection, LlmProviders } from "../connections/ports.js";
import type { CredentialResolver } from "../credentials/ports.js";
import type { Logger } from "../ports.js";
import { BUILTIN_PREFIX, type BuiltinTool, type BuiltinToolRegistry, type ToolOutcome } from "../gateway/builtin-tools.js";
import type { AgentLoop, LoopTool } from "./ports.js";

export const ASK_TOOL_NAME = "ask";
export const ASK_CALLER = "coffer-ask";

export const NO_INTERNAL_DEFAULT =
  "coffer__ask needs an LLM connection marked as the internal default, and none is: add one under Settings → LLM Connections " +
  "(or POST /api/v1/connections with internal_default: true) and mark it the internal default.";

const SYSTEM = [
  "You answer the owner's question from their own knowledge bases and memory, using only the tools you are given.",
  "Search before you answer. Base the answer on what the tools returned and say where it came from.",
  "If the tools find nothing relevant, say so plainly instead of guessing.",
].join(" ");

export interface AskDeps {
  /** Read at every call, so tools registered after start are offered too. */
  readonly tools: BuiltinToolRegistry;
  readonly internalDefault: () => Connection | null;
  readonly providers: LlmProviders;
  readonly credentials: CredentialResolver;
  readonly loop: AgentLoop;
  readonly maxSteps: number;
  readonly logger: Logger;
}

/**
 * `coffer__ask`: an agentic RAG loop over knowledge and memory on the internal-default
 * connection. Only read-only tools are offered, never `ask` itself (no recursion), and the
 * loop is bounded: on the bound it answers that it could not finish, with `truncated: true`.
 */
export function askTool(deps: AskDeps): BuiltinTool<typeof AskInput> {
  return {
    name: ASK_TOOL_NAME,
    description:
      "Ask a question answered from the owner's knowledge bases and memory by Coffer's internal model " +
      "(which searches them for you). Returns {answer, sources}.",
    input: AskInput,
    readOnly: true,
    run: (args, context) => ask(deps, args.query, context.signal),
  };
}

async function ask(deps: AskDeps, query: string, signal?: AbortSignal): Promise<ToolOutcome> {
  const connection = deps.internalDefault();
  if (!connection) return { ok: false, error: NO_INTERNAL_DEFAULT };
  const resolved = resolveEndpoint(deps.providers, deps.credentials, connection);
  if (!resolved.ok) return { ok: false, error: `the internal-default connection "${connection.name}" cannot be used: ${resolved.message}` };

  const tools = loopTools(deps.tools, signal);
  deps.logger.debug("ask", { connection: connection.name, wire: connection.wire, tools: tools.map((t) => t.name) });
  const result = await deps.loop.run({
    endpoint: resolved.endpoint,
    model: connection.model,
    system: SYSTEM,
    prompt: query,
    tools,
    maxSteps: deps.maxSteps,
    signal,
  });
  if (!result.ok) {
    const message = humaniseFailure(result.failure, {
      provider: resolved.provider,
      baseUrl: resolved.endpoint.baseUrl,
      credentialRef: connection.credential_ref,
      model: connection.model,
      timeoutMs: deps.providers.timeoutMs,
      operation: "ask",
    });
    deps.logger.debug("ask failed", { connection: connection.name, kind: result.failure.kind, status: result.failure.status });
    return { ok: false, error: redact(`the internal model could not answer: ${message}`, resolved.endpoint.apiKey) };
  }
  const sources = uniqueSources(result.value.toolCalls);
  const value: AskOutput = result.value.hitStepLimit
    ? {
        answer: `Could not finish within ${deps.maxSteps} steps; try a narrower question. The search so far consulted ${sources.length} source(s).`,
        sources,
        truncated: true,
      }
    : { answer: result.value.text, sources };
  return { ok: true, value };
}

function loopTools(registry: BuiltinToolRegistry, signal?: AbortSignal): LoopTool[] {
  return registry
    .list()
    .filter((t) => t.readOnly && t.name !== ASK_TOOL_NAME)
    .map((t) => ({
      name: `${BUILTIN_PREFIX}${t.name}`,
      description: t.description,
      input: t.input,
      async execute(input: unknown, callSignal?: AbortSignal) {
        const parsed = t.input.safeParse(input);
        if (!parsed.success) return { error: `invalid input for ${BUILTIN_PREFIX}${t.name}: ${parsed.error.issues[0]?.message ?? "rejected"}` };
        const outcome = await t.run(parsed.data, { caller: ASK_CALLER, signal: callSignal ?? signal });
        return outcome.ok ? outcome.value : { error: outcome.error };
      },
    }));
}

function uniqueSources(calls: readonly { tool: string; input: unknown }[]): AskSource[] {
  const seen = new Set<string>();
  const out: AskSource[] = [];
  for (const call of calls) {
    const key = `${call.tool}\u0000${JSON.stringify(call.input)}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ tool: call.tool, input: call.input });
  }
  return out;
}
