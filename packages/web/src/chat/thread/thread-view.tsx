import type { MessageOut } from "@coffer/protocol";
import { defaultRangeExtractor, useVirtualizer } from "@tanstack/react-virtual";
import { memo, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import { Icon } from "../../ui/icons.js";
import { mergeThread, type ThreadItem } from "../live/thread-items.js";
import { useLive, useLiveStore } from "../live/use-live.js";
import { LiveReply, PersistedMessage } from "./messages.js";
import { OutgoingBubble, type OutgoingActions, type OutgoingMessage } from "./outgoing-bubble.js";
import { lastExchange, ThreadActionsContext, type ThreadActions } from "./thread-actions.js";

export type { OutgoingMessage } from "./outgoing-bubble.js";

type Row = ThreadItem | { readonly kind: "outgoing"; readonly key: string; readonly out: OutgoingMessage };

interface Props {
  readonly messages: readonly MessageOut[];
  readonly agentKey: string;
  readonly outgoing: readonly OutgoingMessage[];
  readonly hasOlder: boolean;
  readonly loadingOlder: boolean;
  readonly onLoadOlder: () => void;
  /** Retry a failed send; Send or Discard a message from an earlier visit. */
  readonly outgoingActions: OutgoingActions;
  /** Send a new owner message (a reply's Retry, a message's edit-and-resend). */
  readonly onResend: (text: string) => void;
  /** Bumped on every send: following resumes. */
  readonly followSignal: number;
  /** A search hit to jump to: its row is scrolled into view and flashed (older pages load until it is found). */
  readonly focusMessageId?: string | null;
}

const FOLLOW_PX = 80;

/**
 * The thread: variable-height rows, virtualised, opening at the bottom and following new
 * content while the reader is within 80 px of it. Any upward scroll detaches at once.
 */
export function ThreadView({ messages, agentKey, outgoing, hasOlder, loadingOlder, onLoadOlder, outgoingActions, onResend, followSignal, focusMessageId }: Props) {
  const store = useLiveStore();
  // Structure only (which turns, which phase): content changes never re-render the thread.
  const turnsKey = useLive((s) => s.view.turns.map((t) => `${t.assistantMessageId}:${t.phase}:${t.userMessage.id}`).join("|"));
  const turns = useMemo(() => store.getSnapshot().view.turns, [turnsKey, store]); // eslint-disable-line react-hooks/exhaustive-deps
  useEffect(() => store.reconcile(new Map(messages.map((m) => [m.id, m]))), [messages, store]);

  const rows = useMemo<Row[]>(
    () => [...mergeThread(messages, turns), ...outgoing.map((out) => ({ kind: "outgoing" as const, key: `out:${out.clientId}`, out }))],
    [messages, turns, outgoing],
  );

  const exchange = useMemo(
    () =>
      lastExchange(
        rows.flatMap((r) =>
          r.kind === "message"
            ? [{ role: r.message.role, id: r.message.id, text: r.message.content.map((b) => (b.type === "text" ? b.text : "")).join("") }]
            : r.kind === "live"
              ? [{ role: "assistant" as const, id: r.turn.assistantMessageId, text: "" }]
              : [],
        ),
      ),
    [rows],
  );
  const resendRef = useRef(onResend);
  resendRef.current = onResend;
  const actions = useMemo<ThreadActions>(
    () => ({ resend: (text) => resendRef.current(text), lastReplyId: exchange.lastReplyId, lastUserText: exchange.lastUserText }),
    [exchange.lastReplyId, exchange.lastUserText],
  );

  const scroller = useRef<HTMLDivElement>(null);
  const inner = useRef<HTMLDivElement>(null);
  const following = useRef(true);
  const [detached, setDetached] = useState(false);
  const [unseen, setUnseen] = useState(false);
  const setFollowing = useCallback((on: boolean) => {
    following.current = on;
    setDetached(!on);
    if (on) setUnseen(false);
  }, []);

  const virtual = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => 96,
    getItemKey: (i) => rows[i]!.key,
    overscan: 6,
    // The live reply and the last two messages stay mounted, so following never measures blind.
    rangeExtractor: (range) => {
      const out = new Set(defaultRangeExtractor(range));
      for (let i = Math.max(0, range.count - 3); i < range.count; i++) out.add(i);
      return [...out].sort((a, b) => a - b);
    },
  });

  const stick = useCallback(() => {
    const el = scroller.current;
    if (el && following.current) el.scrollTop = el.scrollHeight;
  }, []);

  // Stick to the bottom whenever the content grows, with a ResizeObserver rather than timers.
  useLayoutEffect(() => {
    const el = inner.current;
    if (!el) return;
    const ro = new ResizeObserver(() => {
      if (following.current) stick();
      else setUnseen(true);
    });
    ro.observe(el);
    return () => ro.disconnect();
  }, [stick]);

  // Paging older messages in at the top keeps what is being read where it was.
  const firstKey = rows[0]?.key;
  const prev = useRef<{ firstKey: string | undefined; total: number }>({ firstKey: undefined, total: 0 });
  useLayoutEffect(() => {
    const el = scroller.current;
    const total = virtual.getTotalSize();
    if (el && prev.current.firstKey && firstKey !== prev.current.firstKey && !following.current) {
      el.scrollTop += total - prev.current.total;
    }
    prev.current = { firstKey, total };
    stick();
  });

  useEffect(() => {
    if (followSignal > 0) {
      setFollowing(true);
      stick();
    }
  }, [followSignal, setFollowing, stick]);

  const onScroll = () => {
    const el = scroller.current!;
    const distance = el.scrollHeight - el.scrollTop - el.clientHeight;
    if (distance <= FOLLOW_PX && !following.current) setFollowing(true);
    else if (distance > FOLLOW_PX && following.current) setFollowing(false);
    if (el.scrollTop < 600 && hasOlder && !loadingOlder) onLoadOlder();
  };
  const detach = () => following.current && setFollowing(false);

  const jump = () => {
    const el = scroller.current!;
    const far = el.scrollHeight - el.scrollTop > 3 * el.clientHeight;
    setFollowing(true);
    el.scrollTo({ top: el.scrollHeight, behavior: far ? "instant" : "smooth" });
  };

  // Jump to a search hit: load older pages until its row is there, then centre and flash it.
  const [flash, setFlash] = useState<string | null>(null);
  const jumped = useRef<string | null>(null);
  const focusIndex = focusMessageId ? rows.findIndex((r) => r.key === focusMessageId) : -1;
  useEffect(() => {
    if (!focusMessageId || jumped.current === focusMessageId) return;
    if (focusIndex < 0) {
      if (hasOlder && !loadingOlder) onLoadOlder();
      return;
    }
    jumped.current = focusMessageId;
    setFollowing(false);
    virtual.scrollToIndex(focusIndex, { align: "center" });
    setFlash(focusMessageId);
  }, [focusMessageId, focusIndex, hasOlder, loadingOlder, onLoadOlder, setFollowing, virtual]);
  useEffect(() => {
    if (!flash) return;
    const t = setTimeout(() => setFlash(null), 2400);
    return () => clearTimeout(t);
  }, [flash]);

  return (
    <ThreadActionsContext.Provider value={actions}>
    <div className="thread-wrap">
      <div
        ref={scroller}
        className="thread-scroll"
        role="log"
        aria-live="off"
        aria-label="Messages"
        tabIndex={0}
        onScroll={onScroll}
        onWheel={(e) => e.deltaY < 0 && detach()}
        onKeyDown={(e) => ["ArrowUp", "PageUp", "Home"].includes(e.key) && detach()}
      >
        {loadingOlder && <div className="thread-loading">Loading older messages…</div>}
        <div ref={inner} className="thread-inner" style={{ height: virtual.getTotalSize() }}>
          {virtual.getVirtualItems().map((item) => (
            <div
              key={item.key}
              data-index={item.index}
              ref={virtual.measureElement}
              className={`thread-row ${flash === item.key ? "msg-flash" : ""}`}
              aria-current={flash === item.key ? "true" : undefined}
              style={{ transform: `translateY(${item.start}px)` }}
            >
              <RowView row={rows[item.index]!} agentKey={agentKey} actions={outgoingActions} />
            </div>
          ))}
        </div>
      </div>
      {detached && (
        <button type="button" className="jump-pill" onClick={jump} aria-label="Jump to latest">
          <Icon name="arrowDown" size={14} />
          Jump to latest
          {unseen && <span className="jump-dot" aria-hidden="true" />}
        </button>
      )}
    </div>
    </ThreadActionsContext.Provider>
  );
}

const RowView = memo(function RowView({ row, agentKey, actions }: { row: Row; agentKey: string; actions: OutgoingActions }) {
  if (row.kind === "message") return <PersistedMessage message={row.message} />;
  if (row.kind === "live") return <LiveReply assistantMessageId={row.turn.assistantMessageId} agentKey={agentKey} />;
  return <OutgoingBubble out={row.out} actions={actions} />;
});
