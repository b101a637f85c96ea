import { z } from "zod";
import { Timestamp } from "../wire/common.js";

/**
 * The MCP gateway's wire shapes: owner-configured upstream servers, the tool catalogue the
 * agents see at `/mcp`, and the invocation log. Upstream tools are exposed as
 * `<server>__<tool>`; Coffer's own as `coffer__<tool>`, so `coffer` is not a server name.
 */
export const McpServerName = z
  .string()
  .regex(/^[a-z0-9][a-z0-9_-]{0,31}$/, "lowercase letters, digits, '_' and '-' (up to 32), starting with a letter or digit")
  .refine((n) => !n.includes("__"), "must not contain '__' (it separates server and tool)")
  .refine((n) => n !== "coffer", "'coffer' is reserved for Coffer's own tools");

/** A value that is either typed in literally or kept in the credential store and referred to. */
export const SecretValue = z.union([
  z.string().max(8192),
  z.object({ credential: z.string().min(1).max(200).describe("A credential reference; resolved when the server starts.") }),
]);
export type SecretValue = z.infer<typeof SecretValue>;

const EnvName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "an environment variable name");
const HeaderName = z.string().regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/, "an HTTP header name");
const StartupTimeoutMs = z.number().int().min(100).max(120_000).describe("How long connecting and listing tools may take.");
const ToolTimeoutMs = z.number().int().min(100).max(600_000).describe("How long one tool call may take.");

const StdioFields = {
  command: z.string().min(1).max(4096),
  args: z.array(z.string().max(8192)).max(256),
  env: z.record(EnvName, SecretValue),
  cwd: z.string().min(1).max(4096).nullable(),
};
const HttpFields = {
  url: z.url({ protocol: /^https?$/ }),
  headers: z.record(HeaderName, SecretValue),
};

export const McpServerCreate = z.discriminatedUnion("transport", [
  z.object({
    name: McpServerName,
    transport: z.literal("stdio"),
    command: StdioFields.command,
    args: StdioFields.args.default([]),
    env: StdioFields.env.default({}),
    cwd: StdioFields.cwd.optional(),
    enabled: z.boolean().default(true),
    startup_timeout_ms: StartupTimeoutMs.optional(),
    tool_timeout_ms: ToolTimeoutMs.optional(),
  }),
  z.object({
    name: McpServerName,
    transport: z.literal("http"),
    url: HttpFields.url,
    headers: HttpFields.headers.default({}),
    enabled: z.boolean().default(true),
    startup_timeout_ms: StartupTimeoutMs.optional(),
    tool_timeout_ms: ToolTimeoutMs.optional(),
  }),
]);
export type McpServerCreate = z.infer<typeof McpServerCreate>;

/** Name and transport are fixed; fields of the other transport are refused. */
export const McpServerPatch = z
  .object({
    enabled: z.boolean(),
    command: StdioFields.command,
    args: StdioFields.args,
    env: StdioFields.env,
    cwd: StdioFields.cwd,
    url: HttpFields.url,
    headers: HttpFields.headers,
    startup_timeout_ms: StartupTimeoutMs,
    tool_timeout_ms: ToolTimeoutMs,
  })
  .partial()
  .strict();
export type McpServerPatch = z.infer<typeof McpServerPatch>;

export const McpServerStatus = z
  .enum(["connecting", "ready", "failed", "disabled"])
  .describe("connecting: first start in progress; failed: down, crashed or timed out (retried with backoff).");
export type McpServerStatus = z.infer<typeof McpServerStatus>;

export const McpToolOut = z.object({
  name: z.string().describe("The name agents call: `<server>__<tool>` or `coffer__<tool>`."),
  server: z.string().describe("The upstream server, or `coffer` for Coffer's own tools."),
  description: z.string(),
  input_schema: z.record(z.string(), z.unknown()),
  available: z.boolean().describe("False while the server is down: the last known tools are kept but not offered."),
});
export type McpToolOut = z.infer<typeof McpToolOut>;

export const McpServerOut = z.object({
  name: McpServerName,
  transport: z.enum(["stdio", "http"]),
  command: z.string().nullable(),
  args: z.array(z.string()),
  env: z.record(z.string(), SecretValue),
  cwd: z.string().nullable(),
  url: z.string().nullable(),
  headers: z.record(z.string(), SecretValue),
  enabled: z.boolean(),
  startup_timeout_ms: z.number().int(),
  tool_timeout_ms: z.number().int(),
  status: McpServerStatus,
  error: z.string().nullable().describe("Why the server is failed, in plain words."),
  tools: z.array(McpToolOut),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type McpServerOut = z.infer<typeof McpServerOut>;

export const McpServerListOut = z.object({ servers: z.array(McpServerOut) });
export type McpServerListOut = z.infer<typeof McpServerListOut>;

/** The whole catalogue: Coffer's tools and every upstream's last known tools. */
export const McpToolListOut = z.object({ tools: z.array(McpToolOut) });
export type McpToolListOut = z.infer<typeof McpToolListOut>;

export const McpInvocationOutcome = z
  .enum(["ok", "error", "unavailable", "timeout", "failed", "unknown_tool", "invalid_arguments"])
  .describe("error: the tool reported one; failed: the server broke during the call; unavailable: it was down.");
export type McpInvocationOutcome = z.infer<typeof McpInvocationOutcome>;

/** One tool call through the gateway: never its arguments or its result. */
export const McpInvocationOut = z.object({
  id: z.number().int(),
  at: Timestamp,
  caller: z.string().describe("The MCP client, e.g. claude-code or codex-mcp-client."),
  tool: z.string(),
  server: z.string(),
  duration_ms: z.number().int(),
  outcome: McpInvocationOutcome,
  agent_key: z
    .string()
    .nullable()
    .describe("The managed agent that made the call (its agent_key, e.g. claude_code); null for the owner's own MCP client and for calls logged before this was recorded."),
  conversation: z
    .object({ id: z.string(), title: z.string() })
    .nullable()
    .describe("The conversation whose turn made the call, as it is now; null for the owner's own client, or once the conversation is deleted."),
});
export type McpInvocationOut = z.infer<typeof McpInvocationOut>;

export const McpInvocationListQuery = z.object({
  limit: z.coerce.number().int().min(1).max(500).optional(),
  before: z.coerce.number().int().min(1).optional().describe("Only invocations with a smaller id (the previous page's next_cursor)."),
  server: z.string().max(64).optional(),
  tool: z.string().max(200).optional(),
});
export type McpInvocationListQuery = z.infer<typeof McpInvocationListQuery>;

export const McpInvocationListOut = z.object({
  invocations: z.array(McpInvocationOut),
  next_cursor: z.number().int().nullable(),
});
export type McpInvocationListOut = z.infer<typeof McpInvocationListOut>;

// ---- builtin tool inputs (the gateway publishes them as JSON Schema) ----

export const SearchToolsInput = z.object({
  query: z.string().max(4096).describe("What you want to do, in a few words."),
  top_k: z.number().int().min(1).max(20).optional().describe("How many tools to return (default 5)."),
});
export type SearchToolsInput = z.infer<typeof SearchToolsInput>;

export const SearchToolsOutput = z.object({
  tools: z.array(z.object({ name: z.string(), description: z.string(), inputSchema: z.record(z.string(), z.unknown()), score: z.number() })),
  total_searched: z.number().int(),
});
export type SearchToolsOutput = z.infer<typeof SearchToolsOutput>;
