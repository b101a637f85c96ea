import { ChatEvent, isTerminalEvent, CHAT_AREA_ROUTES, type MessageOut } from "@coffer/protocol";
import type { CofferApi } from "../../api/client.js";
import { LiveLink, type LinkState } from "../../api/live-link.js";
import { applyEvent, EMPTY_VIEW, reconcile, type LiveView } from "./apply-event.js";

export interface LiveSnapshot {
  readonly view: LiveView;
  readonly link: LinkState;
}

export interface LiveHooks {
  /** Every (re)attach: reconcile messages, the conversation row and the queue. */
  onAttach(): void;
  /** A turn ended, or the server asked us to resync: the persisted thread changed. */
  onThreadChanged(): void;
  onDeleted(): void;
}

/**
 * One open conversation's live state: a single subscription, events buffered and folded
 * through `applyEvent` once per animation frame (a 250 ms timer when the tab is hidden,
 * which has no frames), read by components through useSyncExternalStore.
 */
export class LiveConversationStore {
  private snapshot: LiveSnapshot = { view: EMPTY_VIEW, link: { status: "connecting", attempt: 0, maxAttempts: 5 } };
  private readonly listeners = new Set<() => void>();
  private buffer: ChatEvent[] = [];
  private scheduled: { cancel: () => void } | null = null;
  private readonly link: LiveLink;
  private readonly onVisibility = () => this.flush();

  constructor(
    readonly conversationId: string,
    api: CofferApi,
    private readonly hooks: LiveHooks,
  ) {
    this.link = new LiveLink({
      url: api.url(CHAT_AREA_ROUTES.conversationEvents, { id: conversationId }),
      headers: () => api.headers(),
      onFrame: (frame) => {
        const parsed = ChatEvent.safeParse(JSON.parse(frame.data));
        if (parsed.success) this.push(parsed.data); // unknown event types are skipped by design
      },
      onOpen: () => this.hooks.onAttach(),
      onState: (link) => this.set({ ...this.snapshot, link }),
    });
  }

  start(): void {
    document.addEventListener("visibilitychange", this.onVisibility);
    this.link.start();
  }

  stop(): void {
    document.removeEventListener("visibilitychange", this.onVisibility);
    this.link.stop();
    this.scheduled?.cancel();
  }

  restartLink(): void {
    this.link.restart();
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getSnapshot = (): LiveSnapshot => this.snapshot;

  /** This page's answer to a question came second: remembered for the question's kept card. */
  lostAnswer(questionId: string): void {
    const view = this.snapshot.view;
    if (view.lostAnswers.includes(questionId)) return;
    this.set({ ...this.snapshot, view: { ...view, lostAnswers: [...view.lostAnswers, questionId] } });
  }

  /** The persisted thread was (re)loaded: settled live turns it now holds can go. */
  reconcile(persisted: ReadonlyMap<string, MessageOut>): void {
    const view = reconcile(this.snapshot.view, persisted);
    if (view !== this.snapshot.view) this.set({ ...this.snapshot, view });
  }

  private push(event: ChatEvent): void {
    this.buffer.push(event);
    if (this.scheduled) return;
    if (document.hidden) {
      const t = setTimeout(() => this.flush(), 250);
      this.scheduled = { cancel: () => clearTimeout(t) };
    } else {
      const f = requestAnimationFrame(() => this.flush());
      this.scheduled = { cancel: () => cancelAnimationFrame(f) };
    }
  }

  /** Fold the whole batch as one store update. */
  flush(): void {
    this.scheduled?.cancel();
    this.scheduled = null;
    if (!this.buffer.length) return;
    const batch = this.buffer;
    this.buffer = [];
    let view = this.snapshot.view;
    let threadChanged = false;
    for (const event of batch) {
      view = applyEvent(view, event);
      if (isTerminalEvent(event) || event.type === "resync") threadChanged = true;
    }
    this.set({ ...this.snapshot, view });
    if (view.deleted) {
      this.link.stop();
      this.hooks.onDeleted();
    } else if (threadChanged) this.hooks.onThreadChanged();
  }

  private set(snapshot: LiveSnapshot): void {
    this.snapshot = snapshot;
    for (const l of this.listeners) l();
  }
}
