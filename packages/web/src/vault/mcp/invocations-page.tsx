import { humanToolName, type McpInvocationOut } from "@coffer/protocol";
import { useInfiniteQuery } from "@tanstack/react-query";
import { Link } from "react-router";
import { useAgentName } from "../../api/agent-name.js";
import { useVaultApi } from "../../api/page-apis.js";
import { TOOL_CALL_LOG_KEY } from "../../api/tool-call-log.js";
import { DataTable, EmptyState, Page, StatusDot, Time, type Tone } from "../../ui/page-kit.js";

const OUTCOME: Record<McpInvocationOut["outcome"], { tone: Tone; word: string }> = {
  ok: { tone: "success", word: "OK" },
  error: { tone: "danger", word: "Tool error" },
  failed: { tone: "danger", word: "Server failed" },
  unavailable: { tone: "warning", word: "Unavailable" },
  timeout: { tone: "warning", word: "Timed out" },
  unknown_tool: { tone: "neutral", word: "Unknown tool" },
  invalid_arguments: { tone: "neutral", word: "Invalid arguments" },
};

/**
 * Every tool call through the gateway: who, which tool, from which conversation, when, how
 * long, how it ended (never arguments or results). Live: the gateway's `tool_call_logged`
 * events put new calls on top (api/tool-call-log.ts), so there is nothing to refresh. Tools
 * and agents are named as the chat names them (humanToolName, useAgentName).
 */
export function InvocationsPage() {
  const vault = useVaultApi();
  const agentName = useAgentName();
  const log = useInfiniteQuery({
    queryKey: TOOL_CALL_LOG_KEY,
    queryFn: ({ pageParam }) => vault.invocations(pageParam),
    initialPageParam: null as number | null,
    getNextPageParam: (last) => last.next_cursor,
  });
  const rows = log.data?.pages.flatMap((p) => p.invocations) ?? [];
  return (
    <Page title="Tool calls log">
      <div className="tool-log">
        <DataTable
          label="Tool calls"
          columns={["When", "Caller", "Tool", "Conversation", { label: "Duration", numeric: true }, "Outcome"]}
          query={log}
          loadingLabel="Loading tool calls"
          isEmpty={rows.length === 0}
          empty={<EmptyState>No tool calls yet. They appear here once an agent uses a tool through Coffer.</EmptyState>}
          footer={
            log.hasNextPage && (
              <div className="table-foot">
                <span>{rows.length} shown</span>
                <button type="button" className="btn btn-sm" disabled={log.isFetchingNextPage} onClick={() => void log.fetchNextPage()}>
                  Load older
                </button>
              </div>
            )
          }
        >
          {rows.map((r) => (
            <tr key={r.id}>
              <td className="cell-sub">
                <Time ts={r.at} />
              </td>
              <td>
                {r.agent_key ? (
                  agentName(r.agent_key)
                ) : (
                  // No conversation's credential: an MCP client on the daemon token (the owner's own), named as it names itself.
                  <span className="mono" title="An MCP client using the daemon token, as it names itself">
                    {r.caller}
                  </span>
                )}
              </td>
              <td>
                <span className="cell-main" title={r.tool}>
                  {humanToolName(r.tool)}
                </span>
              </td>
              <td>
                {r.conversation ? (
                  <Link className="log-link" to={`/chat/${encodeURIComponent(r.conversation.id)}`}>
                    {r.conversation.title}
                  </Link>
                ) : (
                  <span className="log-none">{r.agent_key ? "Deleted" : "—"}</span>
                )}
              </td>
              <td className="num">{r.duration_ms.toLocaleString()} ms</td>
              <td>
                <StatusDot tone={OUTCOME[r.outcome].tone}>{OUTCOME[r.outcome].word}</StatusDot>
              </td>
            </tr>
          ))}
        </DataTable>
      </div>
    </Page>
  );
}
