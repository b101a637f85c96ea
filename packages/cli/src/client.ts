import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { readFileSync } from "node:fs";
import http from "node:http";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import {
  AttachmentOut,
  createApiClient,
  createSseParser,
  DaemonInfo,
  ERROR_CATALOGUE,
  ErrorEnvelope,
  errorKind,
  ProofOut,
  proofMessage,
  routePath,
  ROUTES,
  type ApiClient,
  type ApiTransport,
  type ErrorCode,
  type ErrorKind,
  type RouteParams,
  type RouteSpec,
  type SseFrame,
} from "@coffer/protocol";
import { httpRequest, requestOptions, socketAnswers, socketIn, type RawAnswer, type Target } from "./transport.js";
import { startCmd } from "./hints.js";

/** A failure the CLI reports as one line and a code-specific exit status. */
export class CliError extends Error {
  constructor(
    readonly code: ErrorCode | CliOnlyCode,
    message: string,
    readonly status?: number,
    /** The error envelope's details, when the daemon sent any. */
    readonly details?: Record<string, unknown> | null,
  ) {
    super(message);
  }
}

export interface Connection {
  readonly url: string;
  readonly token: string;
  /** The data dir's daemon.sock, when the daemon was found through the data dir and one is there. */
  readonly socketPath?: string;
}

export interface GlobalOptions {
  readonly home?: string;
  readonly url?: string;
  readonly token?: string;
}

export function dataDir(opts: GlobalOptions, env: NodeJS.ProcessEnv = process.env): string {
  return resolve(opts.home ?? env.COFFER_HOME ?? join(homedir(), ".coffer"));
}

/** Where the daemon is: flags, then COFFER_URL/COFFER_TOKEN, then the data dir's daemon.json and token. */
export function connect(opts: GlobalOptions, env: NodeJS.ProcessEnv = process.env): Connection {
  const home = dataDir(opts, env);
  let url = opts.url ?? env.COFFER_URL;
  if (!url) {
    try {
      url = DaemonInfo.parse(JSON.parse(readFileSync(join(home, "daemon.json"), "utf8"))).url;
    } catch {
      throw new CliError("DAEMON_UNREACHABLE", `no running daemon found in ${home} (start one with \`${startCmd()}\`)`);
    }
  }
  let token = opts.token ?? env.COFFER_TOKEN;
  if (!token) {
    try {
      token = readFileSync(join(home, "token"), "utf8").trim();
    } catch {
      throw new CliError("UNAUTHORIZED", `cannot read the daemon token in ${home}`);
    }
  }
  // The private socket only for the data dir's own daemon: an explicit URL means that URL.
  const socketPath = opts.url ?? env.COFFER_URL ? undefined : socketIn(join(home, "daemon.sock"));
  return { url: url.replace(/\/+$/, ""), token, ...(socketPath ? { socketPath } : {}) };
}

/** The port a daemon URL names (what the daemon MACs into its proof). */
function portOf(url: string): number {
  const u = new URL(url);
  return Number(u.port || (u.protocol === "https:" ? 443 : 80));
}

export class DaemonClient {
  private proven: Promise<void> | null = null;
  /** Where requests go once verified: the socket when it answers, else the URL. */
  private target: Target;

  constructor(readonly conn: Connection) {
    this.target = { url: conn.url };
  }

  /**
   * The process at the URL must prove it is this data dir's daemon before the token (or a
   * secret) goes to it: a stale daemon.json may name a port another local user now holds.
   * Once per CLI process; nothing is cached on disk (docs/decisions.md, "Daemon proof").
   */
  verify(): Promise<void> {
    return (this.proven ??= this.prove().catch((err: unknown) => {
      this.proven = null;
      throw err;
    }));
  }

  private async prove(): Promise<void> {
    // The socket lives in the 0700 data dir: only the owner can have bound it, so it needs no
    // proof (docs/decisions.md, "Hardening II"). A stale one (killed daemon) falls back to TCP.
    if (this.conn.socketPath && (await socketAnswers(this.conn.socketPath))) {
      this.target = { url: this.conn.url, socketPath: this.conn.socketPath };
      return;
    }
    this.target = { url: this.conn.url };
    const nonce = randomBytes(32).toString("base64url");
    const refused = (why: string) =>
      new CliError(
        "DAEMON_NOT_VERIFIED",
        `the process at ${this.conn.url} did not prove it is your Coffer daemon (${why}); the token was not sent. ` +
          `Is daemon.json stale? Start the daemon with \`${startCmd()}\`.`,
      );
    let res: Response;
    try {
      res = await fetch(`${this.conn.url}/api/v1${ROUTES.proveDaemon.path}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ nonce }),
      });
    } catch {
      throw new CliError("DAEMON_UNREACHABLE", `cannot reach the daemon at ${this.conn.url} (is it running?)`);
    }
    let answer: ProofOut;
    try {
      if (!res.ok) throw new Error();
      answer = ProofOut.parse(await res.json());
    } catch {
      throw refused(`it answered the proof with ${res.status}`);
    }
    const expected = createHmac("sha256", this.conn.token).update(proofMessage(nonce, portOf(this.conn.url))).digest();
    const given = Buffer.from(answer.mac, "base64url");
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw refused("wrong proof");
  }

  /** The fetch transport under the typed client: proof first, the token, the envelope on failure. */
  private readonly transport: ApiTransport = async ({ method, path, body }) => {
    await this.verify();
    const headers = { authorization: `Bearer ${this.conn.token}`, ...(body === undefined ? {} : { "content-type": "application/json" }) };
    let res: RawAnswer;
    try {
      res = await httpRequest(this.target, method.toUpperCase(), path, headers, body === undefined ? undefined : JSON.stringify(body));
    } catch {
      throw new CliError("DAEMON_UNREACHABLE", `cannot reach the daemon at ${this.conn.url} (is it running?)`);
    }
    if (res.status < 200 || res.status >= 300) throw errorFrom(res.status, res.text);
    return res.text ? JSON.parse(res.text) : null;
  };

  /** One REST call by route (`call(ROUTES.getConversation, { params: { id } })`), parsed with the route's schema. */
  readonly call: ApiClient["call"] = createApiClient(this.transport).call;

  /** Upload one file to attach to a message (the raw bytes; the daemon answers its id, name, type and size). */
  async uploadAttachment(name: string, mediaType: string, bytes: Buffer): Promise<AttachmentOut> {
    await this.verify();
    const headers = { authorization: `Bearer ${this.conn.token}`, "content-type": mediaType };
    let res: RawAnswer;
    try {
      res = await httpRequest(this.target, "POST", routePath(ROUTES.uploadAttachment, {}, { name }), headers, bytes);
    } catch {
      throw new CliError("DAEMON_UNREACHABLE", `cannot reach the daemon at ${this.conn.url} (is it running?)`);
    }
    if (res.status < 200 || res.status >= 300) throw errorFrom(res.status, res.text);
    return AttachmentOut.parse(JSON.parse(res.text));
  }

  /**
   * Stream one attachment's bytes to `write` (GET /attachments/{id}); resolves with the name the
   * daemon gave it (Content-Disposition) once `write` has taken the whole body.
   */
  async download(id: string, write: (name: string, body: NodeJS.ReadableStream) => Promise<void>): Promise<void> {
    await this.verify();
    const res = await new Promise<http.IncomingMessage>((resolveRes, reject) => {
      const req = http.get(requestOptions(this.target, routePath(ROUTES.downloadAttachment, { id }), "GET", { authorization: `Bearer ${this.conn.token}` }), resolveRes);
      req.on("error", () => reject(new CliError("DAEMON_UNREACHABLE", `cannot reach the daemon at ${this.conn.url} (is it running?)`)));
    });
    if (res.statusCode !== 200) {
      let text = "";
      res.setEncoding("utf8");
      for await (const chunk of res) text += chunk;
      throw errorFrom(res.statusCode ?? 0, text);
    }
    await write(dispositionName(res.headers["content-disposition"]) ?? id, res);
  }

  /** Open an SSE stream; resolves once the daemon accepted it. `close()` ends it. */
  async stream<R extends RouteSpec>(route: R, params: RouteParams<R>, onFrame: (frame: SseFrame) => void, onEnd: () => void): Promise<{ close(): void }> {
    await this.verify();
    return new Promise((resolveStream, reject) => {
      const req = http.get(
        requestOptions(this.target, routePath(route, params), "GET", { authorization: `Bearer ${this.conn.token}`, accept: "text/event-stream" }),
        (res) => {
          if (res.statusCode !== 200) {
            let text = "";
            res.setEncoding("utf8");
            res.on("data", (c: string) => (text += c));
            res.on("end", () => reject(errorFrom(res.statusCode ?? 0, text)));
            return;
          }
          res.setEncoding("utf8");
          const parser = createSseParser(onFrame);
          res.on("data", (c: string) => parser.feed(c));
          res.on("close", onEnd);
          resolveStream({ close: () => req.destroy() });
        },
      );
      req.on("error", () => reject(new CliError("DAEMON_UNREACHABLE", `cannot reach the daemon at ${this.conn.url}`)));
    });
  }
}

/** The exact name from `filename*=UTF-8''…` (else the ASCII `filename="…"`), never a path. */
export function dispositionName(header: string | undefined): string | null {
  const exact = /filename\*=UTF-8''([^;]+)/i.exec(header ?? "");
  const plain = /filename="([^"]*)"/i.exec(header ?? "");
  let name: string | undefined;
  try {
    name = exact ? decodeURIComponent(exact[1]!) : plain?.[1];
  } catch {
    name = plain?.[1];
  }
  // A name with a separator would write outside the folder asked for: keep only its last part.
  const last = name?.split(/[\\/]/).pop()?.trim();
  return last && last !== "." && last !== ".." ? last : null;
}

function errorFrom(status: number, text: string): CliError {
  try {
    const env = ErrorEnvelope.parse(JSON.parse(text));
    return new CliError(env.error.code, env.error.message, status, env.error.details as Record<string, unknown> | null | undefined);
  } catch {
    return new CliError("HTTP_ERROR", `the daemon answered ${status}`, status);
  }
}

/**
 * Exit status by error kind: the one table, so every code in protocol's catalogue has one
 * (README, "CLI"; docs/decisions.md, "Error catalogue").
 */
const KIND_EXIT = {
  not_found: 3,
  invalid: 4,
  unprocessable: 4,
  exists: 4,
  unauthorized: 6,
  busy: 7,
  conflict: 1,
  forbidden: 1,
  method_not_allowed: 1,
  timeout: 1,
  too_large: 1,
  unsupported_media: 1,
  headers_too_large: 1,
  internal: 1,
  // The platform behind a channel (Telegram) was unreachable: like the daemon being unreachable.
  bad_gateway: 5,
  // The credential key is unusable or the disk is full: the owner has to act (README).
  unavailable: 10,
  storage_full: 10,
} as const satisfies Record<ErrorKind, number>;

/** Codes only the CLI raises (they never travel on the wire), with their exit status. */
const CLI_EXIT = {
  USAGE: 4,
  DAEMON_UNREACHABLE: 5,
  TURN_FAILED: 8,
  IMPORT_FAILED: 1,
  HTTP_ERROR: 1,
  // The owner answered no to a confirmation (e.g. `chat rm`): nothing was done.
  CANCELLED: 1,
  // `coffer start` refusals: the data dir is another daemon's, or one of its files is unsafe.
  DAEMON_ALREADY_RUNNING: 9,
  DATA_DIR_UNSAFE: 9,
  // `coffer doctor` found a problem (each is printed with its fix).
  PROBLEMS_FOUND: 12,
  // The process at the URL did not prove it is this data dir's daemon; the token was not sent.
  DAEMON_NOT_VERIFIED: 11,
} as const;
export type CliOnlyCode = keyof typeof CLI_EXIT;

/** A code this CLI knows an exit status for (a Node error's `code`, e.g. ENOENT, is not one). */
export function isKnownCode(code: string): code is ErrorCode | CliOnlyCode {
  return Object.hasOwn(CLI_EXIT, code) || Object.hasOwn(ERROR_CATALOGUE, code);
}

/** Each error code has its own exit status, so scripts can tell them apart. */
export function exitCodeFor(code: ErrorCode | CliOnlyCode): number {
  return Object.hasOwn(CLI_EXIT, code) ? CLI_EXIT[code as CliOnlyCode] : KIND_EXIT[errorKind(code as ErrorCode)];
}
