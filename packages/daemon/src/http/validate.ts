import type { Context } from "hono";
import type { z } from "zod";
import { ApiError } from "./errors.js";

function issues(error: z.ZodError): Record<string, unknown> {
  return {
    issues: error.issues.map((i) => ({ path: i.path.join("."), message: i.message, code: i.code })),
  };
}

function summary(error: z.ZodError): string {
  const first = error.issues[0];
  if (!first) return "the request is not valid";
  const where = first.path.length ? first.path.join(".") : "body";
  return `${where}: ${first.message}`;
}

/** Parse and validate a JSON body: malformed → 400 INVALID_JSON, wrong shape → 422 VALIDATION_FAILED. */
export async function jsonBody<S extends z.ZodType>(c: Context, schema: S): Promise<z.output<S>> {
  const raw = await c.req.text();
  let value: unknown;
  try {
    value = raw.trim() === "" ? undefined : JSON.parse(raw);
  } catch {
    throw new ApiError("INVALID_JSON", "the request body is not valid JSON");
  }
  // A route whose body schema admits undefined (an optional body) takes a bodyless request.
  if (value === undefined && !schema.safeParse(undefined).success) throw new ApiError("INVALID_JSON", "this request needs a JSON body");
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new ApiError("VALIDATION_FAILED", summary(parsed.error), issues(parsed.error));
  return parsed.data;
}

export function queryParams<S extends z.ZodType>(c: Context, schema: S): z.output<S> {
  const parsed = schema.safeParse(c.req.query());
  if (!parsed.success) throw new ApiError("VALIDATION_FAILED", summary(parsed.error), issues(parsed.error));
  return parsed.data;
}
