import type { AttachmentOut } from "@coffer/protocol";
import { useEffect, useMemo, useRef, useState } from "react";
import { useParams, useSearchParams } from "react-router";
import { useApi } from "../api/api-context.js";
import { useAgentName } from "../api/agent-name.js";
import { useConversation, useMessages } from "../api/queries.js";
import { useToast } from "../ui/toasts.js";
import { useComposerFocusRequest } from "./composer/composer-focus.js";
import { QueueComposer } from "./composer/queue-composer.js";
import { usePrewarm } from "./composer/use-prewarm.js";
import { useOutgoing } from "./composer/use-outgoing.js";
import { useConversationActions } from "./history/use-conversation-actions.js";
import { LiveContext, useLive, useLiveConversation, useLiveStore } from "./live/use-live.js";
import { ConnectionBanner, TurnErrorBanner } from "./thread/banners.js";
import { ThreadHeader } from "./thread/thread-header.js";
import { ThreadSkeleton } from "./thread/thread-skeleton.js";
import { ThreadView } from "./thread/thread-view.js";
import { TurnAnnouncer } from "./thread/turn-announcer.js";
import type { ChatLayoutProps } from "./chat-layout-props.js";

export function ConversationPage(layout: ChatLayoutProps) {
  const { id } = useParams();
  const store = useLiveConversation(id!);
  return (
    <LiveContext.Provider value={store}>
      <ConversationView key={id} id={id!} {...layout} />
    </LiveContext.Provider>
  );
}

function ConversationView({ id, historyOpen, onOpenHistory }: { id: string } & ChatLayoutProps) {
  const api = useApi();
  const toast = useToast();
  const conversation = useConversation(id);
  const thread = useMessages(id);
  const nameOf = useAgentName();
  const actions = useConversationActions();
  const { outgoing, send, retry, sendEarlier, discard } = useOutgoing(id);
  // Stable, so the thread's memoised rows do not re-render on every change of the outbox.
  const outgoingActions = useMemo(() => ({ retry, sendEarlier, discard }), [retry, sendEarlier, discard]);
  const [followSignal, setFollowSignal] = useState(0);
  const [stopping, setStopping] = useState(false);
  const [dismissed, setDismissed] = useState<object | null>(null);
  // ?m=<message id>: a search hit to jump to (the history's search results link here).
  const [search] = useSearchParams();
  const focusMessageId = search.get("m");
  const focusRequest = useComposerFocusRequest();

  const liveRunning = useLive((s) => s.view.running);
  const pending = useLive((s) => s.view.pending);
  const paused = useLive((s) => s.view.paused);
  const hold = useLive((s) => s.view.hold);
  const error = useLive((s) => s.view.error);
  const steerFallback = useLive((s) => s.view.steerFallback);
  const link = useLive((s) => s.link);
  const runningSince = useLive((s) => s.view.turns.findLast((t) => t.phase === "streaming")?.userMessage.created_at ?? null);
  const waitingForOwner = useLive((s) => s.view.turns.some((t) => t.phase === "streaming" && t.question !== null));
  const store = useLiveStore();

  const c = conversation.data;
  const running = liveRunning ?? c?.running ?? false;
  const prewarm = usePrewarm(c && !running && !c.archived_at ? c.agent_key : null, { conversationId: id });
  const stopStarted = useRef(0);
  // The stopped turn has ended: "Stopping" goes after at least 300 ms. The timer is not undone
  // by the next turn starting (a Retry or the queue can start one within those 300 ms), or
  // "Stopping" would outlive the turn it was about and hide the next turn's Stop.
  const stopTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => {
    if (running || !stopping) return;
    clearTimeout(stopTimer.current);
    stopTimer.current = setTimeout(() => setStopping(false), Math.max(0, 300 - (Date.now() - stopStarted.current)));
  }, [running, stopping]);
  useEffect(() => () => clearTimeout(stopTimer.current), []);

  if (conversation.isError || thread.isError) {
    return (
      <div className="thread-empty" role="alert">
        <p>This conversation could not be loaded{conversation.error ? `: ${conversation.error.message}` : ""}.</p>
        <button type="button" className="btn" onClick={() => void Promise.all([conversation.refetch(), thread.refetch()])}>
          Retry
        </button>
      </div>
    );
  }
  if (!c) return <div className="thread-loading-page" aria-busy="true" />;

  const agentName = nameOf(c.agent_key);
  const onSend = (text: string, files: readonly AttachmentOut[] = []) => {
    send(text, "queue", files);
    setFollowSignal((n) => n + 1);
  };
  const onSteer = (text: string) => {
    send(text, "steer");
    setFollowSignal((n) => n + 1);
  };
  const onStop = () => {
    setStopping(true);
    stopStarted.current = Date.now();
    api.interrupt(id).catch((err: Error) => {
      setStopping(false);
      toast({ tone: "error", text: `Could not stop the turn: ${err.message}` });
    });
  };

  return (
    <section className="thread" aria-label={c.title}>
      <ThreadHeader conversation={c} agentName={agentName} historyOpen={historyOpen} onOpenHistory={onOpenHistory} />
      <TurnAnnouncer agentName={agentName} />
      {thread.isPending ? (
        <ThreadSkeleton />
      ) : (
        <ThreadView
          messages={thread.messages}
          agentKey={c.agent_key}
          outgoing={outgoing}
          hasOlder={thread.hasNextPage}
          loadingOlder={thread.isFetchingNextPage}
          onLoadOlder={() => void thread.fetchNextPage()}
          outgoingActions={outgoingActions}
          onResend={onSend}
          followSignal={followSignal}
          focusMessageId={focusMessageId}
        />
      )}
      <div className="thread-foot">
        <ConnectionBanner link={link} onReload={() => store.restartLink()} />
        {error && dismissed !== error && <TurnErrorBanner error={error} onDismiss={() => setDismissed(error)} />}
        {steerFallback && running && (
          <div className="editing-note" role="status">
            The agent could not take your message now ({steerFallback.reason.replace(/_/g, " ")}) — it is first in the queue.
          </div>
        )}
        {c.archived_at ? (
          <div className="archived-strip">
            <span>This conversation is archived.</span>
            <button type="button" className="btn btn-primary" onClick={() => void actions.restore(c)}>
              Restore
            </button>
          </div>
        ) : (
          <QueueComposer
            conversationId={id}
            agentName={agentName}
            pending={pending}
            paused={paused}
            hold={hold}
            running={running}
            stopping={stopping}
            runningSince={runningSince}
            waitingForOwner={waitingForOwner}
            onSend={onSend}
            onSteer={onSteer}
            onStop={onStop}
            onTyping={prewarm}
            focusRequest={focusRequest}
          />
        )}
      </div>
    </section>
  );
}
