import http from "node:http";
import { createSseParser, type ChatEvent, type SseFrame } from "@coffer/protocol";

export interface ApiResponse<T = any> {
  readonly status: number;
  readonly body: T;
  readonly headers: Headers;
}

/** A thin real-HTTP client for the daemon's API, used by integration tests. */
export class ApiClient {
  constructor(
    readonly baseUrl: string,
    readonly token: string,
  ) {}

  async request<T = any>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<ApiResponse<T>> {
    const res = await fetch(`${this.baseUrl}/api/v1${path}`, {
      method,
      headers: {
        authorization: `Bearer ${this.token}`,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
        ...headers,
      },
      body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      // leave as text
    }
    return { status: res.status, body: parsed as T, headers: res.headers };
  }

  get<T = any>(path: string) {
    return this.request<T>("GET", path);
  }
  post<T = any>(path: string, body?: unknown) {
    return this.request<T>("POST", path, body ?? {});
  }
  put<T = any>(path: string, body: unknown) {
    return this.request<T>("PUT", path, body);
  }
  patch<T = any>(path: string, body: unknown) {
    return this.request<T>("PATCH", path, body);
  }
  delete<T = any>(path: string) {
    return this.request<T>("DELETE", path);
  }
}

export interface ReceivedEvent {
  readonly id: string | undefined;
  readonly event: ChatEvent;
}

/**
 * A real SSE subscription over node:http. Tests wait on frames, never on time:
 * `await sub.waitFor((e) => e.type === "turn_done")`.
 */
export class SseSubscription {
  readonly events: ReceivedEvent[] = [];
  comments = 0;
  /** Bytes received on the wire so far (frames, comments and all). */
  bytes = 0;
  /** The stream exactly as it came over the wire, for scans that must not trust the parser. */
  raw = "";
  ended = false;
  private commentWaiters: (() => void)[] = [];
  private readonly waiters: { match: (e: ReceivedEvent) => boolean; resolve: (e: ReceivedEvent) => void; from: number }[] = [];
  private endWaiters: (() => void)[] = [];
  private req: http.ClientRequest | null = null;
  status = 0;

  static open(baseUrl: string, token: string, path: string, lastEventId?: string): Promise<SseSubscription> {
    const sub = new SseSubscription();
    return sub.connect(baseUrl, token, path, lastEventId).then(() => sub);
  }

  private connect(baseUrl: string, token: string, path: string, lastEventId?: string): Promise<void> {
    return new Promise((resolve, reject) => {
      const headers: Record<string, string> = { authorization: `Bearer ${token}`, accept: "text/event-stream" };
      if (lastEventId) headers["last-event-id"] = lastEventId;
      const req = http.get(`${baseUrl}/api/v1${path}`, { headers }, (res) => {
        this.status = res.statusCode ?? 0;
        if (this.status !== 200) {
          res.resume();
          reject(new Error(`SSE ${path} answered ${this.status}`));
          return;
        }
        res.setEncoding("utf8");
        const parser = createSseParser(
          (f) => this.onFrame(f),
          () => {
            this.comments += 1;
            for (const w of this.commentWaiters.splice(0)) w();
          },
        );
        res.on("data", (chunk: string) => {
          this.bytes += Buffer.byteLength(chunk);
          this.raw += chunk;
          parser.feed(chunk);
        });
        const finish = () => {
          this.ended = true;
          for (const w of this.endWaiters.splice(0)) w();
        };
        res.on("end", finish);
        res.on("close", finish);
        resolve();
      });
      req.on("error", (err) => {
        this.ended = true;
        for (const w of this.endWaiters.splice(0)) w();
        reject(err);
      });
      this.req = req;
    });
  }

  private onFrame(frame: SseFrame): void {
    const received = { id: frame.id, event: JSON.parse(frame.data) as ChatEvent };
    this.events.push(received);
    const index = this.events.length - 1;
    for (const w of [...this.waiters]) {
      if (index >= w.from && w.match(received)) {
        this.waiters.splice(this.waiters.indexOf(w), 1);
        w.resolve(received);
      }
    }
  }

  /** Resolves with the first event (already received or future, from index `from`) that matches. */
  waitFor(match: (e: ChatEvent) => boolean, from = 0): Promise<ReceivedEvent> {
    const found = this.events.slice(from).find((e) => match(e.event));
    if (found) return Promise.resolve(found);
    return new Promise((resolve) => this.waiters.push({ match: (e) => match(e.event), resolve, from }));
  }

  /** Resolves with the n-th (1-based) event matching, counting from the start. */
  async waitForCount(match: (e: ChatEvent) => boolean, n: number): Promise<ReceivedEvent[]> {
    for (;;) {
      const hits = this.events.filter((e) => match(e.event));
      if (hits.length >= n) return hits.slice(0, n);
      await this.waitFor(match, this.events.length);
    }
  }

  /** Resolves once `n` comment frames (heartbeats) have arrived. */
  async waitForComments(n: number): Promise<void> {
    while (this.comments < n) await new Promise<void>((resolve) => this.commentWaiters.push(resolve));
  }

  types(): string[] {
    return this.events.map((e) => e.event.type);
  }

  waitForEnd(): Promise<void> {
    if (this.ended) return Promise.resolve();
    return new Promise((resolve) => this.endWaiters.push(resolve));
  }

  close(): void {
    this.req?.destroy();
  }
}
