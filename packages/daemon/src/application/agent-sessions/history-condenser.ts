/**
 * Older messages of a lost agent session's conversation, condensed by the owner's local model:
 * the internal-default LLM connection, the one `coffer__ask` runs on (Settings → LLM Connections).
 * None set, or it fails: null, and the seed trims those messages instead (session-seed.ts). The
 * failure is logged without the connection's key (redact), never shown to the agent.
 */
import type { HistoryCondenser } from "./session-seed.js";
import { resolveEndpoint } from "../connections/endpoint.js";
import { redact } from "../connections/failure-messages.js";
import type { Connection, LlmProviders } from "../connections/ports.js";
import type { CredentialResolver } from "../credentials/ports.js";
import type { AgentLoop } from "../ask/ports.js";
import type { Logger } from "../ports.js";

const SYSTEM = [
  "You condense the earlier part of a conversation between the owner and their coding agent, so the agent can carry on after losing its memory of it.",
  "Keep every fact, name, decision, file, command and open question; drop pleasantries and repetition.",
  "Answer with the summary only, in short plain sentences.",
].join(" ");

export interface CondenserDeps {
  readonly internalDefault: () => Connection | null;
  readonly providers: LlmProviders;
  readonly credentials: CredentialResolver;
  readonly loop: AgentLoop;
  readonly logger: Logger;
}

export function historyCondenser(deps: CondenserDeps): HistoryCondenser {
  return async (transcript, signal) => {
    const connection = deps.internalDefault();
    if (!connection) return null;
    const resolved = resolveEndpoint(deps.providers, deps.credentials, connection);
    if (!resolved.ok) return null;
    const result = await deps.loop.run({
      endpoint: resolved.endpoint,
      model: connection.model,
      system: SYSTEM,
      prompt: transcript,
      tools: [],
      maxSteps: 1,
      ...(signal ? { signal } : {}),
    });
    if (!result.ok) {
      deps.logger.warn("the local model could not condense a conversation; trimming it instead", {
        connection: connection.name,
        kind: result.failure.kind,
        status: result.failure.status ?? null,
        message: redact(result.failure.providerMessage ?? "", resolved.endpoint.apiKey),
      });
      return null;
    }
    return result.value.text.trim() || null;
  };
}
