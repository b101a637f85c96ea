import type { GatewayAccess } from "../../application/gateway/gateway-ports.js";
import type { SessionCopies } from "../../application/agent-sessions/session-keeper-ports.js";
import type { AgentProcessLedger, WarmProcesses } from "../../application/warm-pool/warm-pool-ports.js";

/**
 * What every managed agent provider (Claude Code, Codex, …) is built from: `providers.ts`
 * hands the same options to each, so no provider imports another to get them.
 */
export interface ManagedAgentOptions {
  /** Default working directory: COFFER_WORKSPACE, `~/coffer-workspace` by default (never in the data dir). */
  readonly workspaceDir: string;
  /** The daemon's environment; PATH decides availability, and agents inherit it minus COFFER_* (agent-environment.ts). */
  readonly env: NodeJS.ProcessEnv;
  /**
   * Coffer's MCP gateway, given to the agent on every turn (absent = no gateway), with a
   * gateway-only credential for this agent and conversation (never the daemon token).
   */
  readonly gateway?: (agentKey: string, conversationId: string) => GatewayAccess | undefined;
  /** The daemon's bounded warm pool (absent: unbounded, each agent's idle timeout only). */
  readonly warm?: WarmProcesses;
  /** Where agent processes are written down while they run, for orphan reaping. */
  readonly ledger?: AgentProcessLedger;
  /**
   * A process pre-warmed for a draft got a gateway credential for a stand-in id; when the
   * draft's first turn adopts it, the stand-in is bound to the real conversation.
   */
  readonly adoptGateway?: (agentKey: string, standInId: string, conversationId: string) => void;
  /**
   * Loads what the gateway needs to answer an agent's first connect, ahead of a first turn
   * (agent-modules.ts says why); called when the owner shows intent. Absent = nothing to load.
   */
  readonly warmGateway?: () => void;
  /**
   * Coffer's private copies of the agents' session files (`<data dir>/agent-sessions/`): each
   * agent keeps its CLI's transcript there after a turn and puts it back before a resume.
   * Absent = nothing kept (a provider built alone, in a test).
   */
  readonly sessionCopies?: SessionCopies;
}
