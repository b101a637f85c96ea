/**
 * The modules an agent's first turn in this daemon needs, loaded ahead of that turn once the
 * owner shows intent (lists the agents, creates a conversation, sends). The daemon loads them
 * lazily so that its start stays fast, but then a fresh daemon's first turn paid for them on
 * its critical path: measured here 0.24–0.48 s to import the Agent SDK (before `claude` can
 * even be spawned) and 0.29–0.56 s for the gateway's MCP server SDK (its first request, which
 * the CLI's start-up waits on; ManagedAgentOptions.warmGateway). Node caches a module once
 * imported, so the turn's own `import()` then resolves at once. A failed load is not
 * reported here: the turn's own import fails the same way and reports it.
 */
let claudeSdk: Promise<unknown> | null = null;

/** Claude Code's turn: the Agent SDK. */
export function warmClaudeSdk(): void {
  claudeSdk ??= import("@anthropic-ai/claude-agent-sdk").catch(() => (claudeSdk = null));
}
