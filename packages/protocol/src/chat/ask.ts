import { z } from "zod";

/** `coffer__ask`: a question answered from the owner's knowledge bases and memory. */
export const AskInput = z.object({
  query: z.string().trim().min(1).max(4096).describe("The question to answer from knowledge and memory."),
});
export type AskInput = z.infer<typeof AskInput>;

export const AskSource = z.object({
  tool: z.string().describe("The read-only tool consulted, e.g. coffer__recall."),
  input: z.unknown(),
});
export type AskSource = z.infer<typeof AskSource>;

export const AskOutput = z.object({
  answer: z.string(),
  sources: z.array(AskSource),
  truncated: z.boolean().optional().describe("The step bound was reached before a final answer."),
});
export type AskOutput = z.infer<typeof AskOutput>;
