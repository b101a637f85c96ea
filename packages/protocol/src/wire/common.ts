import { z } from "zod";

/** ISO-8601 UTC timestamp with milliseconds, e.g. 2026-12-02T11:05:10.123Z. */
export const Timestamp = z.string().describe("ISO-8601 UTC timestamp");

export const ConversationId = z.string().min(1).max(64);
export const AgentKey = z.string().min(1).max(64).regex(/^[a-z][a-z0-9_]*$/);
