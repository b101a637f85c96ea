import type { ListModelsOut, ListModelsRequest, TestConnectionOut, TestConnectionRequest } from "@coffer/protocol";
import type { CredentialResolver } from "../credentials/ports.js";
import type { Clock, Logger } from "../ports.js";
import { resolveEndpoint, type EndpointRequest } from "./endpoint.js";
import { humaniseFailure, redact } from "./failure-messages.js";
import type { LlmProviders } from "./ports.js";

export interface ModelIntrospectionDeps {
  readonly providers: LlmProviders;
  readonly credentials: CredentialResolver;
  readonly clock: Clock;
  readonly logger: Logger;
}

export const NO_MODELS_MESSAGE = "no models returned; enter a model id manually";
export const CONNECTION_OK = "connection ok";

/**
 * list-models and test-connection: ask the provider, persist nothing, and always
 * answer with words the owner can act on instead of an error status.
 */
export class ModelIntrospection {
  constructor(private readonly deps: ModelIntrospectionDeps) {}

  async listModels(req: ListModelsRequest): Promise<ListModelsOut> {
    const { providers, credentials, logger } = this.deps;
    const target = targetOf(req);
    logger.debug("list-models", { wire: target.wire, base_url: target.base_url, credential_ref: target.credential_ref });
    const resolved = resolveEndpoint(providers, credentials, target);
    if (!resolved.ok) return { models: [], message: resolved.message };
    const result = await providers.listModels(resolved.endpoint);
    if (!result.ok) {
      const message = humaniseFailure(result.failure, {
        provider: resolved.provider,
        baseUrl: resolved.endpoint.baseUrl,
        credentialRef: target.credential_ref,
        timeoutMs: providers.timeoutMs,
        operation: "list",
      });
      logger.debug("list-models failed", { wire: target.wire, kind: result.failure.kind, status: result.failure.status });
      return { models: [], message: redact(message, resolved.endpoint.apiKey) };
    }
    const models = [...new Set(result.value)].sort((a, b) => a.localeCompare(b));
    return { models, message: models.length ? `${models.length} model${models.length === 1 ? "" : "s"} listed` : NO_MODELS_MESSAGE };
  }

  async testConnection(req: TestConnectionRequest): Promise<TestConnectionOut> {
    const { providers, credentials, clock, logger } = this.deps;
    const target = targetOf(req);
    logger.debug("test-connection", { wire: target.wire, model: req.model, base_url: target.base_url, credential_ref: target.credential_ref });
    const resolved = resolveEndpoint(providers, credentials, target);
    const detail = { wire: target.wire, model: req.model };
    if (!resolved.ok) {
      return { ok: false, message: resolved.message, detail: { ...detail, kind: resolved.kind, ...(resolved.baseUrl ? { base_url: resolved.baseUrl } : {}) } };
    }
    const started = clock.now();
    const result = await providers.ping(resolved.endpoint, req.model);
    const base = { ...detail, base_url: resolved.endpoint.baseUrl, latency_ms: clock.now() - started };
    if (result.ok) return { ok: true, message: CONNECTION_OK, detail: base };
    const message = humaniseFailure(result.failure, {
      provider: resolved.provider,
      baseUrl: resolved.endpoint.baseUrl,
      credentialRef: target.credential_ref,
      model: req.model,
      timeoutMs: providers.timeoutMs,
      operation: "test",
    });
    logger.debug("test-connection failed", { wire: target.wire, kind: result.failure.kind, status: result.failure.status });
    return {
      ok: false,
      message: redact(message, resolved.endpoint.apiKey),
      detail: { ...base, kind: result.failure.kind, ...(result.failure.status ? { status: result.failure.status } : {}) },
    };
  }
}

/** The endpoint a request names; `provider` is accepted as another name for the API's `wire`. */
function targetOf(req: ListModelsRequest): EndpointRequest {
  return { wire: req.wire ?? req.provider ?? "", base_url: req.base_url ?? null, credential_ref: req.credential_ref ?? null };
}
