import {
  CONVERSATION_PAGE,
  createApiClient,
  ErrorEnvelope,
  CHAT_AREA_ROUTES,
  ATTACHMENT_ROUTES,
  routePath,
  SEARCH_PAGE,
  type AgentConfigPatch,
  type ApiClient,
  type ApiTransport,
  type ConversationCreate,
  type ErrorCode,
  type PendingItemIn,
  type QuestionAnswer,
  type RouteParams,
  type RouteSpec, type Delivery,
  AttachmentOut,
  MEDIA_TYPE_PATTERN,
} from "@coffer/protocol";
import { GuardError, type DaemonGuard } from "./daemon-guard.js";

/** An error the daemon answered with its envelope, or one the page raises itself: a transport failure (NETWORK_ERROR), a non-envelope answer (HTTP_ERROR), a process that failed the proof (DAEMON_NOT_VERIFIED). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode | "NETWORK_ERROR" | "HTTP_ERROR" | "DAEMON_NOT_VERIFIED",
    message: string,
    readonly details: Record<string, unknown> | null = null,
  ) {
    super(message);
  }
}

/** A non-2xx answer as an ApiError: the daemon's envelope when it sent one. */
function failure(status: number, json: unknown): ApiError {
  const envelope = ErrorEnvelope.safeParse(json);
  if (envelope.success) return new ApiError(status, envelope.data.error.code, envelope.data.error.message, envelope.data.error.details);
  return new ApiError(status, "HTTP_ERROR", `The daemon answered ${status}.`);
}

export interface ListParams {
  archived: boolean;
  q?: string;
  cursor?: string | null;
  limit?: number;
}

/** The daemon's answer as JSON, or its error envelope as an ApiError. */
function answer(status: number, text: string): unknown {
  const json: unknown = text ? JSON.parse(text) : null;
  if (status < 200 || status >= 300) throw failure(status, json);
  return json;
}

/** Every REST call the page makes, parsed with the protocol's own schemas. */
export class CofferApi {
  constructor(
    private readonly guard: DaemonGuard,
    private readonly base = "/api/v1",
  ) {}

  /** Sign this page out (the session ends on the daemon at once). */
  signOut(): Promise<void> {
    return this.guard.signOut();
  }

  /** Headers for a new live-link connection: the daemon proves itself again first, with a fresh nonce. */
  async headers(): Promise<Record<string, string>> {
    return { authorization: await this.guard.authorization(true) };
  }

  private async authorization(): Promise<string> {
    try {
      return await this.guard.authorization();
    } catch (err) {
      if (err instanceof GuardError && err.reason === "network") {
        throw new ApiError(0, "NETWORK_ERROR", "The daemon cannot be reached.");
      }
      throw new ApiError(0, "DAEMON_NOT_VERIFIED", "The process on this port has not proven it is your Coffer daemon; nothing was sent.");
    }
  }

  /** Where a route is (the live streams use it; every other call goes through `call`). */
  url<R extends RouteSpec>(route: R, params?: RouteParams<R>): string {
    return `${this.base}${routePath(route, params)}`;
  }

  /**
   * A route whose body is raw bytes with their own media type, not JSON (the microphone's
   * recording): the session's authorization, the envelope on failure, the answer's JSON back
   * for the caller to parse with the route's schema.
   */
  async sendBytes<R extends RouteSpec>(route: R, bytes: Blob, signal?: AbortSignal): Promise<unknown> {
    const authorization = await this.authorization();
    const res = await fetch(this.url(route), { method: route.method.toUpperCase(), headers: { authorization, "content-type": bytes.type }, body: bytes, signal }).catch(
      (err: Error) => {
        if (signal?.aborted) throw err;
        throw new ApiError(0, "NETWORK_ERROR", `The daemon cannot be reached (${err.message}).`);
      },
    );
    const json: unknown = await res.json().catch(() => null);
    if (!res.ok) throw failure(res.status, json);
    return json;
  }

  /** The fetch transport under the typed client: the guard's authorization, the envelope on failure. */
  private readonly transport: ApiTransport = async ({ method, path, body }) => {
    const authorization = await this.authorization();
    let res: Response;
    try {
      res = await fetch(`${this.base}${path}`, {
        method,
        headers: { authorization, ...(body === undefined ? {} : { "content-type": "application/json" }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (err) {
      this.guard.connectionLost();
      throw new ApiError(0, "NETWORK_ERROR", `The daemon cannot be reached (${(err as Error).message}).`);
    }
    return answer(res.status, await res.text());
  };

  /** One REST call by route name, parsed with the route's schema; the Vault and Settings modules build on it. */
  readonly call: ApiClient["call"] = createApiClient(this.transport).call;

  /** The most bytes one attached file may have: the composer refuses a bigger file before uploading it. */
  attachmentLimits() {
    return this.call(ATTACHMENT_ROUTES.attachmentLimits);
  }

  /**
   * Upload one file to attach, reporting progress (0–1) as its bytes leave. A type the daemon
   * would not take as a media type (none, or malformed) goes as application/octet-stream.
   */
  uploadAttachment(file: Blob, name: string, onProgress: (fraction: number) => void): { done: Promise<AttachmentOut>; abort: () => void } {
    let abort = () => undefined as void;
    let aborted = false;
    const url = `${this.url(ATTACHMENT_ROUTES.uploadAttachment)}?name=${encodeURIComponent(name)}`;
    const type = MEDIA_TYPE_PATTERN.test(file.type) ? file.type : "application/octet-stream";
    const done = this.authorization().then(async (authorization) => {
      // Fetched with the first upload: the first load carries no upload code.
      const { xhrUpload } = await import("./xhr-upload.js");
      if (aborted) throw new ApiError(0, "NETWORK_ERROR", "The upload was cancelled.");
      const request = xhrUpload(url, { authorization, "content-type": type }, file, onProgress);
      abort = request.abort;
      const sent = await request.done.catch((err: Error) => {
        throw new ApiError(0, "NETWORK_ERROR", `The upload did not reach the daemon (${err.message}).`);
      });
      return AttachmentOut.parse(answer(sent.status, sent.text));
    });
    return { done, abort: () => ((aborted = true), abort()) };
  }

  /** An attachment's bytes (images for a thumbnail, files to save): fetched with the session, never by a bare URL. */
  async attachmentBlob(id: string): Promise<Blob> {
    const authorization = await this.authorization();
    const res = await fetch(this.url(ATTACHMENT_ROUTES.downloadAttachment, { id }), { headers: { authorization } }).catch((err: Error) => {
      throw new ApiError(0, "NETWORK_ERROR", `The daemon cannot be reached (${err.message}).`);
    });
    // The chip only says it could not be fetched: the status is enough (the first load's budget is tight).
    if (!res.ok) throw new ApiError(res.status, "HTTP_ERROR", `The daemon answered ${res.status}.`);
    return res.blob();
  }

  agents() {
    return this.call(CHAT_AREA_ROUTES.listAgents);
  }

  agentModels(agent: string) {
    return this.call(CHAT_AREA_ROUTES.listAgentModels, { params: { agent } });
  }

  conversations({ archived, q, cursor, limit = q ? SEARCH_PAGE : CONVERSATION_PAGE }: ListParams) {
    return this.call(CHAT_AREA_ROUTES.listConversations, { query: { archived, limit, q, cursor } });
  }

  conversation(id: string) {
    return this.call(CHAT_AREA_ROUTES.getConversation, { params: { id } });
  }

  create(body: ConversationCreate) {
    return this.call(CHAT_AREA_ROUTES.createConversation, { body });
  }

  rename(id: string, title: string) {
    return this.call(CHAT_AREA_ROUTES.renameConversation, { params: { id }, body: { title } });
  }

  archive(id: string) {
    return this.call(CHAT_AREA_ROUTES.archiveConversation, { params: { id } });
  }

  restore(id: string) {
    return this.call(CHAT_AREA_ROUTES.unarchiveConversation, { params: { id } });
  }

  remove(id: string) {
    return this.call(CHAT_AREA_ROUTES.deleteConversation, { params: { id } });
  }

  agentConfig(id: string) {
    return this.call(CHAT_AREA_ROUTES.getAgentConfig, { params: { id } });
  }

  setModel(id: string, model: AgentConfigPatch["model"]) {
    return this.call(CHAT_AREA_ROUTES.patchAgentConfig, { params: { id }, body: { model } });
  }

  messages(id: string, { before, limit = 100 }: { before?: number; limit?: number }) {
    return this.call(CHAT_AREA_ROUTES.listMessages, { params: { id }, query: { limit, before } });
  }

  /** `attachmentIds`: files uploaded with uploadAttachment, in order; with them, `text` may be empty. */
  send(id: string, text: string, clientId: string, delivery: Delivery = "queue", attachmentIds: readonly string[] = []) {
    const files = attachmentIds.length ? { attachment_ids: [...attachmentIds] } : {};
    return this.call(CHAT_AREA_ROUTES.sendMessage, { params: { id }, body: { text, client_id: clientId, delivery, ...files } });
  }

  /** "Send now": steer a queued message into the running turn (or run it when idle). */
  steerPending(id: string, pendingId: string) {
    return this.call(CHAT_AREA_ROUTES.steerPending, { params: { id, pid: pendingId } });
  }

  /** The queue with every text whole (`queue_changed` frames carry only previews). */
  pending(id: string) {
    return this.call(CHAT_AREA_ROUTES.getPending, { params: { id } });
  }

  /** `resume: false` edits the queue without unpausing it. */
  /** `seen`: the ids of the queue this page last showed; messages queued since then are kept. */
  /** `holdId`: the edit hold this save ends (the queue runs on in the same step). */
  setPending(id: string, pending: PendingItemIn[], resume = true, seen?: readonly string[], holdId?: string) {
    return this.call(CHAT_AREA_ROUTES.setPending, { params: { id }, body: { pending, resume, seen: seen ? [...seen] : undefined, ...(holdId ? { hold_id: holdId } : {}) } });
  }

  /** Take (or, with `holdId`, renew) an edit hold: the queue stops in front of this message. */
  holdPending(id: string, pendingId: string, holdId?: string) {
    return this.call(CHAT_AREA_ROUTES.holdPending, { params: { id, pid: pendingId }, body: holdId ? { hold_id: holdId } : {} });
  }

  releasePendingHold(id: string, pendingId: string, holdId: string) {
    return this.call(CHAT_AREA_ROUTES.releasePendingHold, { params: { id, pid: pendingId, hold: holdId } });
  }

  /**
   * The release a leaving page sends (pagehide): `keepalive` lets it outlive the page. Best
   * effort by design: if it never arrives, the hold's lease lapses on the daemon by itself.
   */
  releasePendingHoldOnLeave(id: string, pendingId: string, holdId: string): void {
    const url = this.url(CHAT_AREA_ROUTES.releasePendingHold, { id, pid: pendingId, hold: holdId });
    void this.authorization()
      .then((authorization) => fetch(url, { method: "DELETE", keepalive: true, headers: { authorization } }))
      .catch(() => undefined);
  }

  interrupt(id: string) {
    return this.call(CHAT_AREA_ROUTES.interruptTurn, { params: { id } });
  }

  /** First answer wins: a later one fails with QUESTION_ALREADY_ANSWERED (its message names the winner). */
  answer(id: string, qid: string, answers: QuestionAnswer[]) {
    return this.call(CHAT_AREA_ROUTES.answerQuestion, { params: { id, qid }, body: { answers, by: "web" } });
  }
}
