/**
 * The shared core of the fake LLM providers (llm-fake-anthropic.ts, llm-fake-openai.ts,
 * llm-fake-ollama.ts): a real HTTP server on 127.0.0.1 that checks the key, lists models,
 * and answers chat calls from a `reply` policy the test gives. The official clients and the
 * AI SDK talk to it exactly as they would to the provider.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

/** A chat request reduced to what a policy needs, whatever the wire. */
export interface FakeChat {
  readonly model: string;
  readonly system: string;
  readonly userText: string;
  readonly toolNames: readonly string[];
  /** Tool results the client sent back, in order (their text). */
  readonly toolResults: readonly string[];
}

export type FakeReply = { readonly text: string } | { readonly toolCall: { readonly name: string; readonly input: Record<string, unknown> } };

export interface FakeLlmOptions {
  /** The key the fake accepts; null = no key needed (Ollama). */
  readonly apiKey?: string | null;
  /** What the model listing returns (may be empty). */
  readonly models?: readonly string[];
  /** Models a chat call may name (default: `models`); others get the wire's 404. */
  readonly chatModels?: readonly string[];
  readonly reply?: (chat: FakeChat) => FakeReply;
  /** Accept requests and never answer (timeout tests). */
  readonly stall?: boolean;
}

export interface FakeLlmRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: any;
}

export interface WireHandler {
  /** The credential the request carries (null when none). */
  key(req: FakeLlmRequest): string | null;
  unauthorized(key: string | null): { status: number; body: unknown };
  route(req: FakeLlmRequest, fake: FakeLlmServer): { status: number; body: unknown } | null;
}

export class FakeLlmServer {
  readonly requests: FakeLlmRequest[] = [];
  readonly chats: FakeChat[] = [];
  private readonly server: http.Server;

  protected constructor(
    readonly options: FakeLlmOptions,
    private readonly wire: WireHandler,
  ) {
    this.server = http.createServer((req, res) => void this.handle(req, res));
  }

  protected async listen(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
  }

  get origin(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  get models(): readonly string[] {
    return this.options.models ?? [];
  }

  chatAllowed(model: string): boolean {
    return (this.options.chatModels ?? this.models).includes(model);
  }

  /** Records the chat and asks the test's policy what the model says. */
  answer(chat: FakeChat): FakeReply {
    this.chats.push(chat);
    return this.options.reply ? this.options.reply(chat) : { text: "pong" };
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    let raw = "";
    for await (const chunk of req) raw += chunk;
    const request: FakeLlmRequest = {
      method: req.method ?? "GET",
      path: (req.url ?? "").split("?")[0] ?? "",
      headers: req.headers,
      body: raw ? JSON.parse(raw) : undefined,
    };
    this.requests.push(request);
    if (this.options.stall) return; // held until the client gives up or close() ends it
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    const expected = this.options.apiKey ?? null;
    const key = this.wire.key(request);
    if (expected !== null && key !== expected) {
      const { status, body } = this.wire.unauthorized(key);
      return send(status, body);
    }
    const answer = this.wire.route(request, this);
    if (!answer) return send(404, { error: `no route ${request.method} ${request.path}` });
    send(answer.status, answer.body);
  }
}

/** Text of a content value that may be a string or a list of {type:"text", text} blocks. */
/** A chat-completions style body (OpenAI's and Ollama's share it) reduced to a FakeChat. */
export function chatOfMessages(body: { model: string; messages?: any[]; tools?: any[] }): FakeChat {
  const messages: any[] = body.messages ?? [];
  const text = (role: string) => messages.filter((m) => m.role === role).map((m) => textOf(m.content));
  return {
    model: body.model,
    system: text("system").join("\n"),
    userText: text("user").join("\n"),
    toolNames: (body.tools ?? []).map((t: any) => t.function?.name),
    toolResults: text("tool"),
  };
}

export function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) return content.map((b) => (b && typeof b === "object" && "text" in b ? String(b.text) : textOf(b))).join("");
  return content === undefined || content === null ? "" : JSON.stringify(content);
}

/** A port on 127.0.0.1 with nothing listening (connection refused). */
export async function refusedOrigin(): Promise<string> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}
