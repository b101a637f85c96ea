/**
 * A fake OpenAI Responses API on 127.0.0.1 that the real `codex` binary talks to
 * (its config.toml names this server as the model provider). It replies from directives in the latest user message:
 *
 *   (anything else)     "Echo: <text>" streamed in three deltas
 *   USE_TOOL <command>  an `exec_command` function call (the command on one line); once its output comes back,
 *                       "Tool said: <output>" (so the test sees the command really ran); an
 *                       output "GATE <name>" is answered as the GATE directive is
 *   HOLD_TOOL <name> <command>
 *                       says nothing until the test calls `open(name)`, then the
 *                       `exec_command` call (a steer "before the tool call"). Codex drops
 *                       the held request when a steer comes and asks again with the steered
 *                       text last: while the history holds this directive and no tool output
 *                       after it, the answer is still the call, as a model would still make it.
 *   CALL_MCP <namespace> <tool> <json>
 *                       a namespaced function call (an MCP tool, e.g. mcp__coffer coffer__recall);
 *                       then "Tool said: <output>"
 *   ASK <json questions> a request_user_input function call with those questions (Codex's
 *                       shape: id, header, question, options); then "Tool said: <output>"
 *   SLOW                "w0 w1 w2 …" one delta every `slowDelayMs` until the client
 *                       goes away (interrupt, crash) or `slowDeltas` are sent
 *   STREAM <tag> <n>    "<tag>0 <tag>1 … <tag>n-1 ", paced like SLOW (concurrency tests)
 *   FAIL_HTTP           HTTP 500 with an OpenAI-style error body (every time: Codex retries it
 *                       up to the provider's stream_max_retries)
 *   PLAN_LIMIT          HTTP 429 usage_limit_reached with the x-codex-* rate-limit headers: the
 *                       five-hour (primary) window full, resetting `planResetSeconds` from now
 *   DROP                the connection is destroyed before any response
 *   GATE <name>         "gated <name> ", then holds until the test calls `open(name)`,
 *                       then "released" and the response completes
 *
 * `{{NAME}}` in the user's text reads as `knows[NAME]`: what the model "knows" (a value it read
 * in a file, say) without the user's own message — stored by the daemon — holding it.
 *
 * Like the real API, the response object names the dated snapshot that served the request
 * (served-model.ts), not the alias the request asked for.
 *
 * Every request is recorded (model, input) so tests can assert what reached the model.
 */
import { once } from "node:events";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { servedOpenAiModel } from "./served-model.js";
import { FakeModelServer } from "./fake-model-server.js";

export const FAKE_USAGE = { input: 21, cached: 0, output: 9 } as const;

export interface ResponsesInputItem {
  readonly type: string;
  readonly role?: string;
  readonly content?: { type: string; text?: string }[];
  readonly call_id?: string;
  readonly name?: string;
  readonly arguments?: string;
  readonly output?: unknown;
}

export interface RecordedRequest {
  readonly model: string;
  readonly input: ResponsesInputItem[];
  readonly headers: http.IncomingHttpHeaders;
  /** The latest user-authored text (Codex adds its own context messages before it). */
  readonly userText: string;
  /** performance.now() when the request arrived, and when its reply ended. */
  readonly receivedAt: number;
  finishedAt?: number;
}

export interface FakeResponsesOptions {
  readonly slowDelayMs?: number;
  readonly slowDeltas?: number;
  /** Values the model "knows": `{{NAME}}` in the user's text stands for knows[NAME]. */
  readonly knows?: Readonly<Record<string, string>>;
}

export class FakeOpenAiResponses extends FakeModelServer<RecordedRequest> {
  /** How far ahead PLAN_LIMIT says the full window resets. */
  planResetSeconds = 3600;
  private sequence = 0;
  private responses = 0;

  private constructor(
    protected readonly server: http.Server,
    private readonly options: Required<FakeResponsesOptions>,
  ) {
    super();
  }

  static async start(options: FakeResponsesOptions = {}): Promise<FakeOpenAiResponses> {
    const server = http.createServer();
    const fake = new FakeOpenAiResponses(server, { slowDelayMs: 40, slowDeltas: 2000, knows: {}, ...options });
    server.on("request", (req, res) => void fake.handle(req, res));
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    return fake;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  /** What Codex's `base_url` must be. */
  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}/v1`;
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const path = (req.url ?? "").split("?")[0];
    if (req.method !== "POST" || path !== "/v1/responses") {
      res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: "not found" } }));
      return;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { model: string; input: ResponsesInputItem[] };
    const recorded: RecordedRequest = {
      model: body.model,
      input: body.input,
      headers: req.headers,
      userText: latestUserText(body.input),
      receivedAt: performance.now(),
    };
    this.record(recorded);
    await this.reply(recorded, res);
    recorded.finishedAt = performance.now();
  }

  private async reply(request: RecordedRequest, res: http.ServerResponse): Promise<void> {
    const text = request.userText.replace(/\{\{(\w+)\}\}/g, (all, name: string) => this.options.knows[name] ?? all);
    const last = request.input[request.input.length - 1];
    if (text.startsWith("FAIL_HTTP")) {
      res.writeHead(500, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { message: "the fake model is down", type: "server_error", code: "server_error" } }));
      return;
    }
    if (text.startsWith("PLAN_LIMIT")) {
      const now = Date.now() / 1000;
      res.writeHead(429, {
        "content-type": "application/json",
        "x-codex-primary-used-percent": "100",
        "x-codex-primary-window-minutes": "300",
        "x-codex-primary-reset-at": String(Math.ceil(now + this.planResetSeconds)),
        "x-codex-secondary-used-percent": "40",
        "x-codex-secondary-window-minutes": "10080",
        "x-codex-secondary-reset-at": String(Math.ceil(now + 86_400)),
      });
      res.end(JSON.stringify({ error: { message: "You exceeded your usage limit", type: "usage_limit_reached", code: "rate_limit_exceeded" } }));
      return;
    }
    if (text.startsWith("DROP")) {
      res.socket?.destroy();
      return;
    }
    const stream = this.openStream(res, servedOpenAiModel(request.model));
    const gatedOutput = last?.type === "function_call_output" ? /^GATE (\S+)/.exec(outputText(last.output).trim()) : null;
    if (gatedOutput) {
      await stream.message(["gated ", `${gatedOutput[1]} `], 0, this.gates.opened(gatedOutput[1]!), ["released"]);
    } else if (last?.type === "function_call_output") {
      await stream.message([`Tool said: ${outputText(last.output).trim()}`]);
    } else if (heldToolCall(request.input)) {
      const [, name, ...command] = heldToolCall(request.input)!.split(" ");
      await this.gates.opened(name!);
      stream.functionCall("exec_command", { cmd: command.join(" ") });
    } else if (text.startsWith("CALL_MCP ")) {
      const [, namespace, name, ...json] = text.split(" ");
      stream.functionCall(name!, JSON.parse(json.join(" ")) as Record<string, unknown>, namespace);
    } else if (text.startsWith("ASK ")) {
      stream.functionCall("request_user_input", { questions: JSON.parse(text.slice("ASK ".length)) as unknown[] });
    } else if (text.startsWith("USE_TOOL ")) {
      // The command is the first line: a message's attachment lines may follow it.
      stream.functionCall("exec_command", { cmd: text.slice("USE_TOOL ".length).split("\n")[0]! });
    } else if (text.startsWith("STREAM ")) {
      const [, tag = "s", count = "10"] = text.split(" ");
      await stream.message(Array.from({ length: Number(count) }, (_, i) => `${tag}${i} `), this.options.slowDelayMs);
    } else if (text.startsWith("GATE ")) {
      const name = text.split(" ")[1]!;
      await stream.message(["gated ", `${name} `], 0, this.gates.opened(name), ["released"]);
    } else if (text.startsWith("SLOW")) {
      const words = Array.from({ length: this.options.slowDeltas }, (_, i) => `w${i} `);
      await stream.message(words, this.options.slowDelayMs);
    } else {
      await stream.message(["Echo: ", text.slice(0, Math.ceil(text.length / 2)), text.slice(Math.ceil(text.length / 2))]);
    }
    stream.complete();
  }

  private openStream(res: http.ServerResponse, servedModel: string) {
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    const responseId = `resp_${++this.responses}`;
    const send = (type: string, data: Record<string, unknown>): void => {
      if (res.destroyed) return;
      res.write(`event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: this.sequence++, ...data })}\n\n`);
    };
    const response = (status: string, extra: Record<string, unknown> = {}) => ({
      id: responseId,
      object: "response",
      model: servedModel,
      status,
      output: [],
      ...extra,
    });
    send("response.created", { response: response("in_progress") });
    send("response.in_progress", { response: response("in_progress") });
    let outputIndex = 0;
    return {
      message: async (deltas: string[], delayMs = 0, hold?: Promise<void>, afterHold: string[] = []): Promise<void> => {
        const itemId = `msg_${this.responses}_${outputIndex}`;
        const index = outputIndex++;
        const empty = { type: "message", id: itemId, role: "assistant", status: "in_progress", content: [] };
        send("response.output_item.added", { output_index: index, item: empty });
        send("response.content_part.added", { item_id: itemId, output_index: index, content_index: 0, part: { type: "output_text", text: "", annotations: [] } });
        let sent = "";
        for (const delta of deltas) {
          if (res.destroyed) return;
          if (delayMs > 0) await new Promise((r) => setTimeout(r, delayMs));
          sent += delta;
          send("response.output_text.delta", { item_id: itemId, output_index: index, content_index: 0, delta });
        }
        if (hold) {
          await hold;
          for (const delta of afterHold) {
            if (res.destroyed) return;
            sent += delta;
            send("response.output_text.delta", { item_id: itemId, output_index: index, content_index: 0, delta });
          }
        }
        const part = { type: "output_text", text: sent, annotations: [] };
        send("response.output_text.done", { item_id: itemId, output_index: index, content_index: 0, text: sent });
        send("response.content_part.done", { item_id: itemId, output_index: index, content_index: 0, part });
        send("response.output_item.done", { output_index: index, item: { ...empty, status: "completed", content: [part] } });
      },
      functionCall: (name: string, args: Record<string, unknown>, namespace?: string): void => {
        const index = outputIndex++;
        const callId = `call_${this.responses}_${index}`;
        const item = {
          type: "function_call",
          id: `fc_${this.responses}_${index}`,
          call_id: callId,
          ...(namespace ? { namespace } : {}),
          name,
          arguments: "",
          status: "in_progress",
        };
        const json = JSON.stringify(args);
        send("response.output_item.added", { output_index: index, item });
        send("response.function_call_arguments.delta", { item_id: item.id, output_index: index, delta: json });
        send("response.function_call_arguments.done", { item_id: item.id, output_index: index, arguments: json });
        send("response.output_item.done", { output_index: index, item: { ...item, arguments: json, status: "completed" } });
      },
      complete: (): void => {
        send("response.completed", {
          response: response("completed", {
            usage: {
              input_tokens: FAKE_USAGE.input,
              input_tokens_details: { cached_tokens: FAKE_USAGE.cached },
              output_tokens: FAKE_USAGE.output,
              output_tokens_details: { reasoning_tokens: 0 },
              total_tokens: FAKE_USAGE.input + FAKE_USAGE.output,
            },
          }),
        });
        res.end();
      },
    };
  }
}

function latestUserText(input: readonly ResponsesInputItem[]): string {
  for (let i = input.length - 1; i >= 0; i--) {
    const item = input[i]!;
    if (item.type !== "message" || item.role !== "user") continue;
    const text = (item.content ?? []).map((c) => c.text ?? "").join("");
    // Codex's own context messages are wrapped in tags; the user's text is not.
    if (!text.startsWith("<")) return text;
  }
  return "";
}

/** A `HOLD_TOOL …` user text in the history with no tool output after it yet. */
function heldToolCall(input: readonly ResponsesInputItem[]): string | null {
  for (let i = input.length - 1; i >= 0; i--) {
    const item = input[i]!;
    if (item.type === "function_call_output") return null;
    if (item.type !== "message" || item.role !== "user") continue;
    const text = (item.content ?? []).map((c) => c.text ?? "").join("");
    if (text.startsWith("HOLD_TOOL ")) return text;
  }
  return null;
}

function outputText(output: unknown): string {
  if (typeof output === "string") return output.split("Output:\n").pop() ?? output;
  if (Array.isArray(output)) return output.map((o: { text?: string }) => o.text ?? "").join("");
  return JSON.stringify(output);
}

/** Every user/assistant text in a request, in order, for history assertions. */
export function conversationTexts(request: RecordedRequest): string[] {
  return request.input
    .filter((i) => i.type === "message" && (i.role === "user" || i.role === "assistant"))
    .map((i) => (i.content ?? []).map((c) => c.text ?? "").join(""))
    .filter((t) => !t.startsWith("<"));
}
