import http from "node:http";
import { createSseParser, type ChatEvent, type MessageOut } from "@coffer/protocol";

export interface TurnView {
  assistantId: string | null;
  text: string;
  /** The next clock-delta index expected ("<i>@<ms>\n"). */
  next: number;
  duplicates: number;
  gaps: number;
  /** Rebuilt from the persisted message after a resync, not from events. */
  fromPersisted: boolean;
  done: boolean;
}

/**
 * A client of one conversation's live bus that drops its connection at random frames and
 * resumes with Last-Event-ID, the way a page on a flaky network does. On `resync` it
 * refetches the persisted message. Frames are folded strictly in order, one at a time.
 */
export class ResumingReader {
  connections = 0;
  drops = 0;
  /** Connections the other side cut (a reset or an early end), resumed with Last-Event-ID. */
  serverDrops = 0;
  resyncs = 0;
  idDuplicates = 0;
  idGaps = 0;
  turn: TurnView = newTurn();
  private lastId: string | undefined;
  private generation = 0;
  private req: http.ClientRequest | null = null;
  private readonly queue: { generation: number; id: string | undefined; event: ChatEvent }[] = [];
  private draining = false;
  private turnWaiter: (() => void) | null = null;
  private closed = false;

  constructor(
    private readonly baseUrl: string,
    private readonly token: string,
    private readonly conversationId: string,
    private readonly dropChance: number,
    private readonly random: () => number,
    /** Where to refetch messages on `resync` (the daemon itself when the stream goes through a cutting proxy). */
    private readonly restUrl = baseUrl,
  ) {}

  connect(): Promise<void> {
    const generation = ++this.generation;
    this.connections += 1;
    const headers: Record<string, string> = { authorization: `Bearer ${this.token}`, accept: "text/event-stream" };
    if (this.lastId) headers["last-event-id"] = this.lastId;
    return new Promise((resolve, reject) => {
      const url = `${this.baseUrl}/api/v1/chat/conversations/${this.conversationId}/events`;
      const req = http.get(url, { headers, agent: false }, (res) => {
        if (res.statusCode !== 200) return reject(new Error(`events answered ${res.statusCode}`));
        res.setEncoding("utf8");
        const parser = createSseParser((f) => {
          this.queue.push({ generation, id: f.id, event: JSON.parse(f.data) as ChatEvent });
          void this.drain();
        });
        res.on("data", (chunk: string) => parser.feed(chunk));
        // Cut by the server or the network (not by us): resume from the last folded frame.
        // A partial frame left in this connection's parser is dropped with it.
        res.on("error", () => undefined); // the reset is handled on close
        res.on("close", () => {
          if (generation !== this.generation || this.closed) return;
          this.serverDrops += 1;
          void this.connect().catch(() => this.retry(generation + 1));
        });
        resolve();
      });
      req.on("error", (err: NodeJS.ErrnoException) => {
        if (generation === this.generation && !this.closed) reject(err);
      });
      this.req = req;
    });
  }

  private retry(generation: number): void {
    if (generation !== this.generation || this.closed) return;
    void this.connect().catch(() => this.retry(generation + 1));
  }

  /** Drop the connection now (between turns, say) and resume from the last folded frame. */
  async reconnect(): Promise<void> {
    this.drops += 1;
    this.req?.destroy();
    // A server-side cut may land inside the response headers of the new connection too, and of
    // the next: a client keeps trying (the proxy cuts ~1 connection in 4 inside its headers, so
    // one retry was not enough about once a run). Bounded, so a dead server still fails the test.
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.connect();
      } catch (err) {
        if (attempt >= 20) throw err;
      }
    }
  }

  /** Start watching for a new turn (call before sending its message). */
  expectTurn(): Promise<void> {
    this.turn = newTurn();
    return new Promise((resolve) => (this.turnWaiter = resolve));
  }

  close(): void {
    this.closed = true;
    this.req?.destroy();
  }

  private async drain(): Promise<void> {
    if (this.draining) return;
    this.draining = true;
    try {
      while (this.queue.length) {
        const frame = this.queue.shift()!;
        if (frame.generation !== this.generation) continue; // from a connection we dropped
        if (frame.event.type !== "queue_changed" && this.random() < this.dropChance) {
          // The network ate this frame and everything after it on this connection.
          await this.reconnect();
          continue;
        }
        this.checkId(frame.id);
        if (frame.id) this.lastId = frame.id;
        await this.fold(frame.event);
      }
    } finally {
      this.draining = false;
    }
  }

  private checkId(id: string | undefined): void {
    if (!id || !this.lastId) return;
    const [epoch, seq] = split(id);
    const [lastEpoch, lastSeq] = split(this.lastId);
    if (epoch !== lastEpoch) return; // a new stream; resync said so
    if (seq <= lastSeq) this.idDuplicates += 1;
    else if (seq > lastSeq + 1) this.idGaps += 1;
  }

  private async fold(event: ChatEvent): Promise<void> {
    const turn = this.turn;
    switch (event.type) {
      case "turn_start":
        // Replays after a resync start the in-flight turn over.
        Object.assign(turn, newTurn(), { assistantId: event.assistant_message_id });
        break;
      case "text_delta":
        turn.text += event.text;
        for (const stamp of event.text.split("\n")) {
          if (!stamp) continue;
          const i = Number(stamp.slice(0, stamp.indexOf("@")));
          if (i < turn.next) turn.duplicates += 1;
          else if (i > turn.next) turn.gaps += i - turn.next;
          turn.next = Math.max(turn.next, i + 1);
        }
        break;
      case "turn_done":
      case "turn_error":
        this.finish();
        break;
      case "resync": {
        this.resyncs += 1;
        // The cursor could not be honoured: the persisted message is the truth for a turn
        // that has ended; an in-flight one is replayed from its turn_start right after this.
        const latest = await this.latestAssistant();
        if (latest && latest.status !== "streaming" && (turn.assistantId === null || turn.assistantId === latest.id)) {
          Object.assign(turn, newTurn(), { assistantId: latest.id, text: textOf(latest), fromPersisted: true });
          this.finish();
        }
        break;
      }
      default:
        break;
    }
  }

  private finish(): void {
    this.turn.done = true;
    const w = this.turnWaiter;
    this.turnWaiter = null;
    w?.();
  }

  private async latestAssistant(): Promise<MessageOut | undefined> {
    const res = await fetch(`${this.restUrl}/api/v1/chat/conversations/${this.conversationId}/messages?limit=2`, {
      headers: { authorization: `Bearer ${this.token}` },
    });
    const { messages } = (await res.json()) as { messages: MessageOut[] };
    return messages.filter((m) => m.role === "assistant").pop();
  }
}

function newTurn(): TurnView {
  return { assistantId: null, text: "", next: 0, duplicates: 0, gaps: 0, fromPersisted: false, done: false };
}

function split(id: string): [string, number] {
  const dash = id.lastIndexOf("-");
  return [id.slice(0, dash), Number(id.slice(dash + 1))];
}

export function textOf(m: MessageOut): string {
  return m.content.map((b) => (b.type === "text" ? b.text : "")).join("");
}
