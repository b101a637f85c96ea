import type { McpInvocationListOut, McpInvocationListQuery } from "@coffer/protocol";
import { invocationOut } from "./invocation-out.js";
import type { McpStore } from "./gateway-ports.js";

const DEFAULT_PAGE = 50;

/** The gateway's tool-call log as the owner pages through it (newest first), apart from the servers' config. */
export class McpInvocations {
  constructor(private readonly store: Pick<McpStore, "listInvocations">) {}

  list(query: McpInvocationListQuery): McpInvocationListOut {
    const { invocations, hasMore } = this.store.listInvocations({ ...query, limit: query.limit ?? DEFAULT_PAGE });
    return {
      invocations: invocations.map(invocationOut),
      next_cursor: hasMore ? invocations[invocations.length - 1]!.id : null,
    };
  }
}
