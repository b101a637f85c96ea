/**
 * How Coffer answers the app-server's own requests. Managed agents run with full
 * permissions (the owner pairing is the security gate: docs/architecture.md), and threads
 * start with a policy that prompts only for MCP elicitations (thread-params.ts), so these
 * rarely come at all. When one does, an approval is granted; anything that needs a human
 * answer we do not have is declined.
 * Nothing is ever left unanswered: a turn would hang on it.
 */
import { DeclinedRequest } from "./json-rpc-connection.js";

const METHOD_NOT_HANDLED = -32601;

export function answerServerRequest(method: string, params: unknown): unknown {
  const p = (params ?? {}) as Record<string, unknown>;
  switch (method) {
    case "item/commandExecution/requestApproval":
    case "item/fileChange/requestApproval":
      return { decision: "accept" };
    case "execCommandApproval":
    case "applyPatchApproval":
      return { decision: "approved" };
    case "item/permissions/requestApproval":
      // Grant exactly what was asked, for this turn only.
      return { permissions: p.permissions ?? {}, scope: "turn" };
    case "mcpServer/elicitation/request":
      // Codex asks this way before running an MCP tool: that is an approval. A form from an
      // MCP server goes to the owner when a turn is running (elicitation-form.ts); one that
      // reaches this policy has no one to answer it.
      return isToolApproval(p) ? { action: "accept", content: {}, _meta: null } : { action: "decline", content: null, _meta: null };
    case "item/tool/call":
      // We register no dynamic tools, so a call to one can only fail.
      return { contentItems: [{ type: "inputText", text: "Coffer has no such tool" }], success: false };
    default:
      // account/chatgptAuthTokens/refresh, attestation/generate, and whatever a later Codex adds:
      // declined with an error the server can act on. (item/tool/requestUserInput never gets
      // here: the owner answers it, codex-app-server.ts and user-input.ts.)
      throw new DeclinedRequest(METHOD_NOT_HANDLED, `Coffer does not answer ${method}`);
  }
}

export function isToolApproval(params: unknown): boolean {
  const meta = (params as Record<string, unknown> | null)?._meta as Record<string, unknown> | null | undefined;
  return typeof meta?.codex_approval_kind === "string";
}
