import { createSseParser, type SseFrame } from "@coffer/protocol";

export type LinkStatus = "connecting" | "open" | "reconnecting" | "stopped" | "gone";

export interface LinkState {
  readonly status: LinkStatus;
  /** Reconnect attempt in progress (1-based); 0 while open. */
  readonly attempt: number;
  readonly maxAttempts: number;
}

export interface LiveLinkOptions {
  readonly url: string;
  /** Called before every (re)connect; may first make the daemon prove itself (it throws if it does not). */
  readonly headers: () => Record<string, string> | Promise<Record<string, string>>;
  readonly onFrame: (frame: SseFrame) => void;
  /** Every (re)attach: `resumed` = we sent a Last-Event-ID. The caller reconciles here. */
  readonly onOpen: (resumed: boolean) => void;
  readonly onState: (state: LinkState) => void;
  /** No byte for this long = a dead connection. The daemon sends a heartbeat every ≤ 15 s. */
  readonly livenessMs?: number;
  readonly maxAttempts?: number;
}

const BACKOFF_MS = [250, 1000, 2000, 4000, 8000];

/**
 * One server-sent-events subscription over fetch (EventSource cannot send the token
 * header). Every (re)connect asks `headers()` first, which re-runs the daemon proof. It resumes with Last-Event-ID after a drop, treats silence past the liveness
 * window as a drop, and gives up after a bounded number of attempts.
 */
export class LiveLink {
  private lastEventId: string | undefined;
  private controller: AbortController | null = null;
  private stopped = false;
  private attempt = 0;
  private wake: (() => void) | null = null;
  private readonly livenessMs: number;
  private readonly maxAttempts: number;

  constructor(private readonly options: LiveLinkOptions) {
    this.livenessMs = options.livenessMs ?? 40_000;
    this.maxAttempts = options.maxAttempts ?? BACKOFF_MS.length;
  }

  start(): void {
    this.stopped = false;
    void this.run();
  }

  stop(): void {
    this.stopped = true;
    this.controller?.abort();
    this.wake?.();
  }

  /** Start over after giving up (the banner's Reload). Keeps the cursor. */
  restart(): void {
    this.stop();
    this.attempt = 0;
    this.start();
  }

  private state(status: LinkStatus): void {
    this.options.onState({ status, attempt: this.attempt, maxAttempts: this.maxAttempts });
  }

  private async run(): Promise<void> {
    this.state("connecting");
    while (!this.stopped) {
      const outcome = await this.connectOnce();
      if (this.stopped) return;
      if (outcome === "gone") return this.state("gone");
      this.attempt += 1;
      if (this.attempt > this.maxAttempts) return this.state("stopped");
      this.state("reconnecting");
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, BACKOFF_MS[Math.min(this.attempt - 1, BACKOFF_MS.length - 1)]);
        this.wake = () => {
          clearTimeout(t);
          resolve();
        };
      });
      this.wake = null;
    }
  }

  private async connectOnce(): Promise<"dropped" | "gone"> {
    const controller = new AbortController();
    this.controller = controller;
    let liveness: ReturnType<typeof setTimeout> | undefined;
    const kick = () => {
      clearTimeout(liveness);
      liveness = setTimeout(() => controller.abort(), this.livenessMs);
    };
    try {
      const resumed = this.lastEventId !== undefined;
      const headers = await this.options.headers();
      const res = await fetch(this.options.url, {
        headers: {
          ...headers,
          accept: "text/event-stream",
          ...(resumed ? { "last-event-id": this.lastEventId! } : {}),
        },
        cache: "no-store",
        signal: controller.signal,
      });
      // 404: the conversation is gone; 401: the token is wrong. Retrying cannot help.
      if (res.status === 404 || res.status === 401) return "gone";
      if (!res.ok || !res.body) return "dropped";
      this.attempt = 0;
      this.state("open");
      this.options.onOpen(resumed);
      kick();
      const parser = createSseParser((frame) => {
        if (frame.id) this.lastEventId = frame.id;
        this.options.onFrame(frame);
      });
      const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return "dropped";
        kick();
        parser.feed(value);
      }
    } catch {
      // A network error or our own abort (stop, liveness): both mean "this connection is over".
      return "dropped";
    } finally {
      clearTimeout(liveness);
    }
  }
}
