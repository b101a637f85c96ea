import type { z } from "zod";
import type { LlmEndpoint, LlmResult } from "../connections/ports.js";

/** A tool the loop may call; `execute` never throws (a failure is a value the model reads). */
export interface LoopTool {
  readonly name: string;
  readonly description: string;
  readonly input: z.ZodType;
  execute(input: unknown, signal?: AbortSignal): Promise<unknown>;
}

export interface LoopRequest {
  readonly endpoint: LlmEndpoint;
  readonly model: string;
  readonly system: string;
  readonly prompt: string;
  readonly tools: readonly LoopTool[];
  readonly maxSteps: number;
  readonly signal?: AbortSignal;
}

export interface LoopOutcome {
  readonly text: string;
  readonly toolCalls: readonly { readonly tool: string; readonly input: unknown }[];
  /** The step bound ended the loop while the model still wanted tools. */
  readonly hitStepLimit: boolean;
}

/** A tool-calling loop on one model (the AI SDK in infrastructure/llm). Never throws. */
export interface AgentLoop {
  run(request: LoopRequest): Promise<LlmResult<LoopOutcome>>;
}
