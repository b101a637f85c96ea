import { z } from "zod";
import { ERROR_CATALOGUE, ErrorEnvelope, KIND_STATUS } from "./errors.js";
import type { RouteSpec } from "./route-spec.js";
import { ROUTE_LIST } from "../routes.js";

type Json = Record<string, unknown>;

function schemaOf(schema: z.ZodType, io: "input" | "output"): Json {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: "any" }) as Json;
  return rest;
}

function operation(route: RouteSpec): Json {
  const op: Json = { summary: route.summary, responses: {} };
  if (route.auth === "none") op.security = [];
  if (route.auth === "token_or_login_code") op.security = [{ bearer: [] }, { cofferToken: [] }, {}];
  const params: Json[] = [];
  for (const match of route.path.matchAll(/\{(\w+)\}/g)) {
    params.push({ name: match[1], in: "path", required: true, schema: { type: "string" } });
  }
  if (route.query) {
    const shape = route.query.shape as Record<string, z.ZodType>;
    for (const [name, field] of Object.entries(shape)) {
      params.push({ name, in: "query", required: false, schema: schemaOf(field, "input") });
    }
  }
  if (params.length) op.parameters = params;
  if (route.body) {
    op.requestBody = { required: true, content: { "application/json": { schema: schemaOf(route.body, "input") } } };
  }
  const responses: Json = {};
  for (const [status, body] of Object.entries(route.responses)) {
    if (body === null) responses[status] = { description: "No content" };
    else if ("sse" in body) {
      responses[status] = {
        description: "Server-sent events; each `data:` is one of these JSON objects, `event:` is its type",
        content: { "text/event-stream": { schema: schemaOf(body.sse, "output") } },
      };
    } else {
      responses[status] = { description: "OK", content: { "application/json": { schema: schemaOf(body, "output") } } };
    }
  }
  responses.default = {
    description: "Error envelope",
    content: { "application/json": { schema: schemaOf(ErrorEnvelope, "output") } },
  };
  op.responses = responses;
  return op;
}

/** OpenAPI 3.1 for /api/v1, generated from the zod schemas in this package (never hand-written). */
export function buildOpenApi(version: string): Json {
  const paths: Record<string, Json> = {};
  for (const route of ROUTE_LIST) {
    const item = (paths[route.path] ??= {});
    item[route.method] = operation(route);
  }
  return {
    openapi: "3.1.0",
    info: { title: "Coffer daemon API", version },
    servers: [{ url: "/api/v1" }],
    security: [{ bearer: [] }, { cofferToken: [] }],
    components: {
      securitySchemes: {
        bearer: { type: "http", scheme: "bearer" },
        cofferToken: { type: "apiKey", in: "header", name: "X-Coffer-Token" },
      },
      // Every envelope code with the status its kind fixes, so a client can read them in one place.
      "x-error-codes": Object.fromEntries(
        Object.entries(ERROR_CATALOGUE).map(([code, e]) => [code, { status: KIND_STATUS[e.kind], kind: e.kind, description: e.about }]),
      ),
    },
    paths,
  };
}
