import type { McpServerOut } from "@coffer/protocol";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Link } from "react-router";
import { useVaultApi } from "../../api/page-apis.js";
import { Icon } from "../../ui/icons.js";
import { EmptyState, InlineError, Page, SkeletonRows } from "../../ui/page-kit.js";
import { useToast } from "../../ui/toasts.js";
import { McpServerForm } from "./mcp-server-form.js";
import { McpServerCard } from "./mcp-server-card.js";

export const mcpKeys = { servers: ["vault", "mcp", "servers"] as const };

/** Upstream MCP servers the gateway aggregates, with their status and tools. */
export function McpServersPage() {
  const vault = useVaultApi();
  const client = useQueryClient();
  const toast = useToast();
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<string | null>(null);
  const servers = useQuery({
    queryKey: mcpKeys.servers,
    queryFn: vault.mcpServers,
    // No live events: while a server is starting, poll until it settles.
    refetchInterval: (q) => (q.state.data?.servers.some((s) => s.status === "connecting") ? 700 : false),
  });
  const invalidate = () => client.invalidateQueries({ queryKey: mcpKeys.servers });
  const toggle = useMutation({
    mutationFn: (s: McpServerOut) => vault.setMcpServerEnabled(s.name, !s.enabled),
    onError: (err) => toast({ text: `Could not change the server: ${(err as Error).message}`, tone: "error" }),
    onSettled: invalidate,
  });
  const remove = useMutation({
    mutationFn: (name: string) => vault.deleteMcpServer(name),
    onSuccess: (_, name) => toast({ text: `Removed MCP server '${name}'` }),
    onError: (err) => toast({ text: `Could not remove: ${(err as Error).message}`, tone: "error" }),
    onSettled: invalidate,
  });
  const list = servers.data?.servers ?? [];
  return (
    <Page
      title="MCP servers"
      actions={
        <>
          <Link className="btn" to="/vault/mcp/log">
            <Icon name="list" /> Tool calls log
          </Link>
          <button type="button" className="btn btn-primary" aria-expanded={adding} onClick={() => setAdding(true)}>
            <Icon name="plus" /> Add server
          </button>
        </>
      }
    >
      <p className="page-lead">
        Tool servers your agents use through Coffer. A server that is down never breaks a turn: its tools are marked unavailable and the agent carries on
        without them.
      </p>
      {adding && (
        <div className="page-section">
          <McpServerForm
            onDone={(saved) => {
              setAdding(false);
              if (saved) void invalidate();
            }}
          />
        </div>
      )}
      {servers.isPending && <SkeletonRows label="Loading MCP servers" />}
      {servers.isError && <InlineError error={servers.error} onRetry={() => void servers.refetch()} />}
      {servers.isSuccess && list.length === 0 && !adding && (
        <EmptyState action={<button type="button" className="btn" onClick={() => setAdding(true)}>Add server</button>}>
          No upstream servers yet. Agents still get Coffer's own tools.
        </EmptyState>
      )}
      <ul className="server-list" aria-label="MCP servers">
        {list.map((s) =>
          editing === s.name ? (
            <li key={s.name}>
              <McpServerForm
                server={s}
                onDone={(saved) => {
                  setEditing(null);
                  if (saved) void invalidate();
                }}
              />
            </li>
          ) : (
            <McpServerCard
              key={s.name}
              server={s}
              onEdit={() => setEditing(s.name)}
              onToggle={() => toggle.mutate(s)}
              onDelete={() => remove.mutate(s.name)}
            />
          ),
        )}
      </ul>
    </Page>
  );
}
