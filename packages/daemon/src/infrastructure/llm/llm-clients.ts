import type { AgentLoop, LoopOutcome, LoopRequest } from "../../application/ask/ports.js";
import type { LlmEndpoint, LlmResult, LlmProviders, ProviderKind } from "../../application/connections/ports.js";
import { classifyError } from "./classify-error.js";
import type { CallOptions, Dialect } from "./dialect.js";
import { PROVIDER_KINDS, type ProviderKindDefinition } from "./provider-kinds.js";

/**
 * The daemon's one door to LLM providers: model listing, connection tests and the agentic
 * loop, each through the provider's official client. Errors become classified failures here.
 */
export class LlmClients implements LlmProviders, AgentLoop {
  constructor(
    readonly timeoutMs: number,
    private readonly table: readonly ProviderKindDefinition[] = PROVIDER_KINDS,
  ) {}

  providerKinds(): readonly ProviderKind[] {
    return this.table;
  }

  async listModels(endpoint: LlmEndpoint, signal?: AbortSignal): Promise<LlmResult<string[]>> {
    const dialect = this.dialect(endpoint);
    await dialect.load();
    const options = this.options(signal);
    return this.attempt(options.signal, () => dialect.listModels(endpoint, options));
  }

  async ping(endpoint: LlmEndpoint, model: string, signal?: AbortSignal): Promise<LlmResult<void>> {
    const dialect = this.dialect(endpoint);
    await dialect.load();
    const options = this.options(signal);
    return this.attempt(options.signal, () => dialect.ping(endpoint, model, options));
  }

  async run(request: LoopRequest): Promise<LlmResult<LoopOutcome>> {
    // The AI SDK loads on first use (the daemon must not pay its import at start-up), and
    // before the deadline starts: the step bound is about the provider, not our import.
    const { dynamicTool, generateText, stepCountIs } = await import("ai");
    // Each step is one model call: the whole loop gets a deadline per step.
    const { signal } = this.options(request.signal, request.maxSteps);
    return this.attempt(signal, async () => {
      const tools = Object.fromEntries(
        request.tools.map((t) => [
          t.name,
          dynamicTool({ description: t.description, inputSchema: t.input, execute: (input, { abortSignal }) => t.execute(input, abortSignal) }),
        ]),
      );
      const result = await generateText({
        model: await this.dialect(request.endpoint).languageModel(request.endpoint, request.model),
        system: request.system,
        prompt: request.prompt,
        tools,
        stopWhen: stepCountIs(request.maxSteps),
        maxRetries: 0,
        abortSignal: signal,
      });
      const last = result.steps.at(-1);
      return {
        text: result.text,
        toolCalls: result.steps.flatMap((s) => s.toolCalls.map((c) => ({ tool: c.toolName, input: c.input }))),
        hitStepLimit: result.steps.length >= request.maxSteps && last?.finishReason === "tool-calls",
      };
    });
  }

  private dialect(endpoint: LlmEndpoint): Dialect {
    const kind = this.table.find((k) => k.kind === endpoint.providerKind);
    if (!kind) throw new Error(`no dialect for provider kind ${endpoint.providerKind}`);
    return kind.dialect;
  }

  private options(signal: AbortSignal | undefined, calls = 1): CallOptions {
    const timeout = AbortSignal.timeout(this.timeoutMs * calls);
    return { timeoutMs: this.timeoutMs, signal: signal ? AbortSignal.any([signal, timeout]) : timeout };
  }

  /** The one place provider errors become results: the caller turns them into words. */
  private async attempt<T>(signal: AbortSignal, call: () => Promise<T>): Promise<LlmResult<T>> {
    try {
      return { ok: true, value: await call() };
    } catch (err) {
      // Each client words an abort its own way; our deadline firing is what it means.
      if (signal.aborted && (signal.reason as Error | undefined)?.name === "TimeoutError") return { ok: false, failure: { kind: "timeout" } };
      return { ok: false, failure: classifyError(err) };
    }
  }
}
