import http from "node:http";
import type { AddressInfo } from "node:net";
import { lastUserTurn, stripReminders, type UserTurn } from "./anthropic-request.js";
import { SseReply } from "./anthropic-sse.js";
import { servedAnthropicModel } from "./served-model.js";
import { FakeModelServer } from "./fake-model-server.js";

/**
 * A fake Anthropic Messages API on 127.0.0.1 that the real `claude` CLI talks to
 * (`ANTHROPIC_BASE_URL`). It streams SSE like the real API and picks its reply from
 * a directive in the user's last message:
 *
 *   RUN: <shell command>   → a Bash tool_use; the next call answers "Tool said: <output>"
 *                            (an output "GATE <name>" is answered as the GATE directive is)
 *   HOLD_TOOL <name> <cmd> → says nothing until the test calls `open(name)`, then a Bash
 *                            tool_use running <cmd> (a steer "before the tool call")
 *   CALL: <tool> <json>    → a tool_use of any tool (e.g. mcp__coffer__coffer__recall; the JSON on one line); then "Tool said: …"
 *                            (a line "THEN GATE <name>" after it holds that answer until `open(name)`, then "released")
 *   ASK: <json questions>  → an AskUserQuestion tool_use with those questions (the SDK's input
 *                            shape); the answer comes back as its tool_result, then "Tool said: …"
 *   HOLD                   → streams "partial reply " and then holds the stream open until
 *                            the client goes away (interrupt, watchdog, crash tests)
 *   STALL                  → message_start, then nothing until the client goes away
 *   GATE <name>            → streams "gated <name> ", holds until the test calls
 *                            `open(name)`, then streams "released" and ends the turn
 *   PLAN_LIMIT             → HTTP 429 with the unified rate-limit headers of a claude.ai plan
 *                            whose five-hour window is full, resetting `planResetSeconds` from
 *                            now (the CLI reports them only when signed in with an OAuth token)
 *   OVERLOADED             → HTTP 529 overloaded_error, on every request (the CLI retries it)
 *   DROP                   → the connection is destroyed before any response (the CLI sees
 *                            no HTTP status at all, like a refused or reset connection)
 *   SAY: <text>            → <text> streamed in 5-character deltas (a word, or a secret, split
 *                            across deltas the way a real model's tokens split it)
 *   anything else          → "Fake reply to: <text>" in a few deltas
 *
 * `{{NAME}}` in the user's text reads as `knows[NAME]`: what the model "knows" (a value it read
 * in a file, say) without the user's own message — stored by the daemon — holding it.
 *
 * A model in `rejectModels` gets the API's 404 for an unknown model. Like the real API, the
 * reply names the dated snapshot that served the request (served-model.ts), not the alias.
 */
export interface RecordedRequest {
  readonly model: string;
  readonly headers: http.IncomingHttpHeaders;
  /** Each message reduced to role + plain text (tool blocks as `[tool_use X]` / `[tool_result ...]`). */
  readonly transcript: readonly { role: string; text: string }[];
  readonly lastUser: UserTurn;
  /** Every tool_result block in the request's history, in order. */
  readonly toolResults: readonly { toolUseId: string; text: string }[];
  /** The request body as sent (reminders and all): where a steered message rides inside a tool result. */
  readonly raw: string;
  /** performance.now() when the whole request body had arrived (benches time model requests by it). */
  readonly receivedAt: number;
}

export interface FakeAnthropicOptions {
  readonly rejectModels?: readonly string[];
  /** Values the model "knows": `{{NAME}}` in the user's text stands for knows[NAME]. */
  readonly knows?: Readonly<Record<string, string>>;
}

export const REPLY_USAGE = { input_tokens: 21, output_tokens: 9 } as const;

export class FakeAnthropic extends FakeModelServer<RecordedRequest> {
  /** How far ahead PLAN_LIMIT says the full window resets. */
  planResetSeconds = 3600;
  /** Streams held open by HOLD / STALL that the client has since closed. */
  closedByClient = 0;
  protected readonly server: http.Server;
  private readonly waiters: { n: number; resolve: () => void }[] = [];
  private rejectModels: Set<string>;
  private readonly knows: Readonly<Record<string, string>>;

  private constructor(options: FakeAnthropicOptions) {
    super();
    this.rejectModels = new Set(options.rejectModels ?? []);
    this.knows = options.knows ?? {};
    this.server = http.createServer((req, res) => this.handle(req, res));
  }

  static async start(options: FakeAnthropicOptions = {}): Promise<FakeAnthropic> {
    const fake = new FakeAnthropic(options);
    await new Promise<void>((resolve) => fake.server.listen(0, "127.0.0.1", resolve));
    return fake;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** The environment a `claude` process needs to talk to this fake and nothing else. */
  clientEnv(): Record<string, string> {
    return {
      ANTHROPIC_BASE_URL: this.url,
      ANTHROPIC_API_KEY: "fake-key",
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
      DISABLE_TELEMETRY: "1",
      DISABLE_AUTOUPDATER: "1",
      DISABLE_ERROR_REPORTING: "1",
    };
  }

  /** Resolves once `n` model requests have arrived in total. */
  waitForRequests(n: number): Promise<void> {
    if (this.requests.length >= n) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ n, resolve }));
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const path = (req.url ?? "").split("?")[0];
    if (req.method !== "POST" || path !== "/v1/messages") {
      res.writeHead(404, { "content-type": "application/json" }).end('{"type":"error","error":{"type":"not_found_error","message":"not found"}}');
      return;
    }
    let raw = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (raw += chunk));
    req.on("end", () => this.answer(req, res, JSON.parse(raw) as MessagesBody, raw));
  }

  private answer(req: http.IncomingMessage, res: http.ServerResponse, body: MessagesBody, raw: string): void {
    const recorded: RecordedRequest = {
      model: body.model,
      headers: req.headers,
      transcript: body.messages.map((m) => ({ role: m.role, text: plainText(m.content) })),
      lastUser: lastUserTurn(body.messages),
      toolResults: body.messages.flatMap((m) =>
        typeof m.content === "string"
          ? []
          : m.content
              .filter((b) => b.type === "tool_result")
              .map((b) => ({ toolUseId: String(b.tool_use_id), text: resultText(b.content) })),
      ),
      raw,
      receivedAt: performance.now(),
    };
    this.record(recorded);
    for (const w of [...this.waiters]) {
      if (this.requests.length >= w.n) {
        this.waiters.splice(this.waiters.indexOf(w), 1);
        w.resolve();
      }
    }
    if (this.rejectModels.has(body.model)) {
      res.writeHead(404, { "content-type": "application/json", "request-id": "req_fake_404" });
      res.end(JSON.stringify({ type: "error", error: { type: "not_found_error", message: `model: ${body.model}` } }));
      return;
    }
    if (recorded.lastUser.toolResult === undefined && recorded.lastUser.text.startsWith("PLAN_LIMIT")) {
      const reset = String(Math.ceil(Date.now() / 1000 + this.planResetSeconds));
      res.writeHead(429, {
        "content-type": "application/json",
        "request-id": "req_fake_429",
        "anthropic-ratelimit-unified-status": "rejected",
        "anthropic-ratelimit-unified-reset": reset,
        "anthropic-ratelimit-unified-representative-claim": "five_hour",
        "anthropic-ratelimit-unified-5h-utilization": "1.0",
        "anthropic-ratelimit-unified-5h-reset": reset,
      });
      res.end(JSON.stringify({ type: "error", error: { type: "rate_limit_error", message: "rate limited" } }));
      return;
    }
    if (recorded.lastUser.toolResult === undefined && recorded.lastUser.text.startsWith("OVERLOADED")) {
      res.writeHead(529, { "content-type": "application/json", "request-id": "req_fake_529" });
      res.end(JSON.stringify({ type: "error", error: { type: "overloaded_error", message: "Overloaded" } }));
      return;
    }
    if (recorded.lastUser.toolResult === undefined && recorded.lastUser.text.startsWith("DROP")) {
      req.socket.destroy();
      return;
    }
    const reply = new SseReply(res, servedAnthropicModel(body.model), REPLY_USAGE);
    res.on("close", () => {
      if (!res.writableFinished) this.closedByClient += 1;
    });
    const last = { ...recorded.lastUser, text: recorded.lastUser.text.replace(/\{\{(\w+)\}\}/g, (all, name: string) => this.knows[name] ?? all) };
    if (last.toolResult !== undefined) {
      const after = /^GATE (\S+)/.exec(last.toolResult.trim());
      // `CALL: … \nTHEN GATE <name>`: the answer after the call holds until the test opens it.
      const call = [...recorded.transcript].reverse().find((m) => m.role === "user" && m.text.startsWith("CALL: "));
      const then = call && /\nTHEN GATE (\S+)/.exec(call.text);
      if (!after && then) {
        reply.holdAfter([`Tool said: `, `${last.toolResult.trim()} `]);
        void this.gates.opened(then[1]!).then(() => reply.resume(["released"]));
        return;
      }
      if (!after) return reply.text([`Tool said: `, last.toolResult.trim()]);
      reply.holdAfter(["gated ", `${after[1]} `]);
      void this.gates.opened(after[1]!).then(() => reply.resume(["released"]));
      return;
    }
    const held = /^HOLD_TOOL (\S+) (.+)$/s.exec(last.text);
    if (held) return reply.toolUseAfter(this.gates.opened(held[1]!), "Bash", { command: held[2]!.trim(), description: "run the requested command" });
    const run = /^RUN: (.+)$/s.exec(last.text);
    if (run) return reply.toolUse("Bash", { command: run[1]!.trim(), description: "run the requested command" });
    const call = /^CALL: (\S+) ([^\n]+)/.exec(last.text); // the JSON is one line: lines naming attached files may follow
    if (call) return reply.toolUse(call[1]!, JSON.parse(call[2]!) as Record<string, unknown>);
    const say = /^SAY: (.+)$/s.exec(last.text);
    if (say) return reply.text(say[1]!.match(/.{1,5}/gs)!);
    const ask = /^ASK: (.+)$/s.exec(last.text);
    if (ask) return reply.toolUse("AskUserQuestion", { questions: JSON.parse(ask[1]!) as unknown[] });
    if (last.text.startsWith("HOLD")) return reply.holdAfter(["partial ", "reply "]);
    if (last.text.startsWith("STALL")) return reply.holdAfter([]);
    const gate = /^GATE (\S+)/.exec(last.text);
    if (gate) {
      reply.holdAfter(["gated ", `${gate[1]} `]);
      void this.gates.opened(gate[1]!).then(() => reply.resume(["released"]));
      return;
    }
    return reply.text(["Fake ", "reply ", "to: ", last.text]);
  }
}

interface MessagesBody {
  model: string;
  messages: { role: string; content: string | Record<string, unknown>[] }[];
}

function plainText(content: string | Record<string, unknown>[]): string {
  if (typeof content === "string") return content;
  return content
    .map((b) => {
      if (b.type === "text") return stripReminders(String(b.text));
      if (b.type === "tool_use") return `[tool_use ${String(b.name)}]`;
      if (b.type === "tool_result") return `[tool_result]`;
      return "";
    })
    .filter((t) => t.length > 0)
    .join(" ");
}

function resultText(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) return content.map((c: Record<string, unknown>) => (c.type === "text" ? String(c.text) : "")).join("");
  return "";
}
