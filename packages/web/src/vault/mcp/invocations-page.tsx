import type { McpInvocationOut } from "@coffer/protocol";
import { useInfiniteQuery } from "@tanstack/react-query";
import { useRef } from "react";
import { useVaultApi } from "../../api/page-apis.js";
import { Icon } from "../../ui/icons.js";
import { EmptyState, InlineError, Page, SkeletonRows, StatusDot, Time, useCellLabels, type Tone } from "../../ui/page-kit.js";

/** The log's columns: at phone width each row is a card whose cells say which column they are (pages-phone.css). */
const COLUMNS = ["When", "Caller", "Tool", "Duration", "Outcome"];

const OUTCOME: Record<McpInvocationOut["outcome"], { tone: Tone; word: string }> = {
  ok: { tone: "success", word: "OK" },
  error: { tone: "danger", word: "Tool error" },
  failed: { tone: "danger", word: "Server failed" },
  unavailable: { tone: "warning", word: "Unavailable" },
  timeout: { tone: "warning", word: "Timed out" },
  unknown_tool: { tone: "neutral", word: "Unknown tool" },
  invalid_arguments: { tone: "neutral", word: "Invalid arguments" },
};

/** Every tool call through the gateway: who, which tool, when, how long, how it ended (never arguments or results). */
export function InvocationsPage() {
  const vault = useVaultApi();
  const log = useInfiniteQuery({
    queryKey: ["vault", "mcp", "invocations"],
    queryFn: ({ pageParam }) => vault.invocations(pageParam),
    initialPageParam: null as number | null,
    getNextPageParam: (last) => last.next_cursor,
  });
  const rows = log.data?.pages.flatMap((p) => p.invocations) ?? [];
  const body = useRef<HTMLTableSectionElement>(null);
  useCellLabels(body, COLUMNS);
  return (
    <Page
      title="Tool calls log"
      actions={
        <button type="button" className="btn" onClick={() => void log.refetch()} disabled={log.isFetching}>
          <Icon name={log.isFetching && !log.isFetchingNextPage ? "spinner" : "refresh"} /> Refresh
        </button>
      }
    >
      <div className="table-wrap">
        <table className="table table-cards" aria-label="Tool calls">
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Caller</th>
              <th scope="col">Tool</th>
              <th scope="col" className="num">Duration</th>
              <th scope="col">Outcome</th>
            </tr>
          </thead>
          <tbody ref={body}>
            {rows.map((r) => (
              <tr key={r.id}>
                <td className="cell-sub">
                  <Time ts={r.at} />
                </td>
                <td>{r.caller}</td>
                <td>
                  <code>{r.tool}</code>
                </td>
                <td className="num">{r.duration_ms.toLocaleString()} ms</td>
                <td>
                  <StatusDot tone={OUTCOME[r.outcome].tone}>{OUTCOME[r.outcome].word}</StatusDot>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {log.isPending && <SkeletonRows label="Loading tool calls" />}
        {log.isError && <InlineError error={log.error} onRetry={() => void log.refetch()} />}
        {log.isSuccess && rows.length === 0 && <EmptyState>No tool calls yet. They appear here once an agent uses a tool through Coffer.</EmptyState>}
        {log.hasNextPage && (
          <div className="table-foot">
            <span>{rows.length} shown</span>
            <button type="button" className="btn btn-sm" disabled={log.isFetchingNextPage} onClick={() => void log.fetchNextPage()}>
              Load older
            </button>
          </div>
        )}
      </div>
    </Page>
  );
}
