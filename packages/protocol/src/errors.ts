import { z } from "zod";

export const ErrorBody = z.object({
  code: z.string().describe("Stable SCREAMING_SNAKE code."),
  message: z.string(),
  details: z.record(z.string(), z.unknown()).nullable(),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

export const ErrorEnvelope = z.object({ error: ErrorBody });
export type ErrorEnvelope = z.infer<typeof ErrorEnvelope>;
