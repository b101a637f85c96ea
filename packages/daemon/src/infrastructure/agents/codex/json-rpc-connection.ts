/**
 * JSON-RPC over newline-delimited JSON, as `codex app-server` speaks it on stdio: one
 * object per line, no `"jsonrpc"` member in what the server sends, three shapes told
 * apart by their members — response `{id, result|error}`, server request
 * `{id, method, params}`, notification `{method, params}`. Transport-free: the owner
 * feeds it lines and gives it a `write` function, so it is unit-tested without a process.
 */

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** The peer answered a request with an error object. */
export class JsonRpcError extends Error {
  constructor(
    readonly method: string,
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = "JsonRpcError";
  }
}

/** No answer in time; the request is forgotten (a late answer is dropped). */
export class JsonRpcTimeout extends Error {
  constructor(
    readonly method: string,
    readonly timeoutMs: number,
  ) {
    super(`codex app-server did not answer ${method} within ${timeoutMs} ms`);
    this.name = "JsonRpcTimeout";
  }
}

/** Thrown by a server-request handler to answer with a JSON-RPC error instead of a result. */
export class DeclinedRequest extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
    this.name = "DeclinedRequest";
  }
}

export interface ConnectionHandlers {
  onNotification(method: string, params: unknown): void;
  /** Answer a server→client request: return the result (or a promise of it: the owner may take a while), or throw DeclinedRequest. */
  onRequest(method: string, params: unknown): unknown;
  /** A line that is not one JSON-RPC message: logged by the owner and skipped. */
  onMalformed(line: string, reason: string): void;
}

interface Pending {
  readonly method: string;
  readonly resolve: (value: unknown) => void;
  readonly reject: (err: Error) => void;
  readonly timer: NodeJS.Timeout;
}

export class JsonRpcConnection {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private closedWith: Error | null = null;

  constructor(
    private readonly write: (line: string) => void,
    private readonly handlers: ConnectionHandlers,
    private readonly defaultTimeoutMs = 30_000,
  ) {}

  get closed(): boolean {
    return this.closedWith !== null;
  }

  request<T = unknown>(method: string, params: unknown, timeoutMs = this.defaultTimeoutMs): Promise<T> {
    if (this.closedWith) return Promise.reject(this.closedWith);
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new JsonRpcTimeout(method, timeoutMs));
      }, timeoutMs);
      timer.unref();
      this.pending.set(id, { method, resolve: resolve as (v: unknown) => void, reject, timer });
      this.send({ id, method, params });
    });
  }

  notify(method: string, params?: unknown): void {
    if (this.closedWith) return;
    this.send(params === undefined ? { method } : { method, params });
  }

  /** Feed one line read from the peer. */
  receive(line: string): void {
    if (line.trim() === "") return;
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch (err) {
      this.handlers.onMalformed(line, `not JSON: ${(err as Error).message}`);
      return;
    }
    if (!isObject(message)) {
      this.handlers.onMalformed(line, "not a JSON object");
      return;
    }
    const { id, method } = message;
    if (typeof method === "string" && id !== undefined) this.answer(id, method, message.params);
    else if (typeof method === "string") this.handlers.onNotification(method, message.params);
    else if (typeof id === "number" && ("result" in message || "error" in message)) this.settle(id, message);
    else this.handlers.onMalformed(line, "neither a response, a request nor a notification");
  }

  /** The peer is gone: every pending request fails with `reason`, later ones at once. */
  close(reason: Error): void {
    if (this.closedWith) return;
    this.closedWith = reason;
    for (const [id, p] of this.pending) {
      clearTimeout(p.timer);
      this.pending.delete(id);
      p.reject(reason);
    }
  }

  private settle(id: number, message: Record<string, unknown>): void {
    const p = this.pending.get(id);
    if (!p) return; // timed out earlier; the late answer has no one waiting
    this.pending.delete(id);
    clearTimeout(p.timer);
    if (isObject(message.error)) {
      const { code, message: text, data } = message.error;
      p.reject(new JsonRpcError(p.method, typeof code === "number" ? code : -32603, String(text ?? "unknown error"), data));
    } else {
      p.resolve(message.result);
    }
  }

  /** Every server request gets an answer, so the server never waits on us forever. */
  private answer(id: unknown, method: string, params: unknown): void {
    const fail = (err: unknown): void => {
      const code = err instanceof DeclinedRequest ? err.code : -32603;
      this.send({ id, error: { code, message: err instanceof Error ? err.message : String(err) } });
    };
    try {
      const result = this.handlers.onRequest(method, params);
      if (result instanceof Promise) {
        result.then((value: unknown) => this.closedWith || this.send({ id, result: value ?? null }), (err: unknown) => this.closedWith || fail(err));
      } else {
        this.send({ id, result: result ?? null });
      }
    } catch (err) {
      fail(err);
    }
  }

  private send(message: Record<string, unknown>): void {
    this.write(`${JSON.stringify(message)}\n`);
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
