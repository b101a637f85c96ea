import { z } from "zod";
import { AgentListOut } from "./agents.js";
import { AuditListOut, AuditListQuery } from "./audit.js";
import { LoginCodeOut, ProofOut, ProofRequest, SessionCreate, SessionOut } from "./auth.js";
import {
  AgentConfigOut,
  AgentConfigPatch,
  ConversationCreate,
  ConversationListOut,
  ConversationListQuery,
  ConversationOut,
  ConversationPatch,
} from "./conversations.js";
import { ChatEvent, ConversationListEvent } from "./events.js";
import { HealthOut } from "./health.js";
import { SETTINGS_ROUTES } from "./routes-settings.js";
import {
  McpInvocationListOut,
  McpInvocationListQuery,
  McpServerCreate,
  McpServerListOut,
  McpServerOut,
  McpServerPatch,
  McpToolListOut,
} from "./mcp.js";
import {
  MessageListOut,
  MessageListQuery,
  PendingQueueIn,
  PendingQueueOut,
  SendMessageAck,
  SendMessageRequest,
} from "./messages.js";
import { VAULT_ROUTES } from "./routes-vault.js";
import type { RouteSpec } from "./route-spec.js";

export type { HttpMethod, RouteSpec } from "./route-spec.js";

const conv = "/chat/conversations/{id}";
const mcpServer = "/mcp/servers/{name}";

/** The one table of every /api/v1 route. OpenAPI is generated from it; tests walk it. */
export const ROUTES: readonly RouteSpec[] = [
  { method: "get", path: "/health", summary: "Liveness and version", responses: { 200: HealthOut } },
  {
    method: "post",
    path: "/auth/proof",
    summary: "The daemon proves it holds the key (token or session secret) before any credential is sent",
    auth: "none",
    body: ProofRequest,
    responses: { 200: ProofOut },
  },
  {
    method: "post",
    path: "/auth/session",
    summary: "Exchange the long-lived token or a login code for a session that dies with this daemon process",
    auth: "token_or_login_code",
    body: SessionCreate,
    responses: { 201: SessionOut },
  },
  { method: "post", path: "/auth/login-code", summary: "A single-use login code, valid for 60 s (coffer open)", responses: { 201: LoginCodeOut } },
  { method: "get", path: "/openapi.json", summary: "This document", responses: { 200: z.record(z.string(), z.unknown()) } },
  { method: "get", path: "/chat/agents", summary: "Registered agents and their availability", responses: { 200: AgentListOut } },
  { method: "get", path: "/audit", summary: "The audit log, newest first", query: AuditListQuery, responses: { 200: AuditListOut } },
  {
    method: "get",
    path: "/chat/events",
    summary: "Live conversation-list changes (SSE)",
    responses: { 200: { sse: ConversationListEvent } },
  },
  {
    method: "get",
    path: "/chat/conversations",
    summary: "List conversations, newest first",
    query: ConversationListQuery,
    responses: { 200: ConversationListOut },
  },
  {
    method: "post",
    path: "/chat/conversations",
    summary: "Create a conversation with an agent",
    body: ConversationCreate,
    responses: { 201: ConversationOut },
  },
  { method: "get", path: conv, summary: "Get a conversation", responses: { 200: ConversationOut } },
  { method: "patch", path: conv, summary: "Rename a conversation", body: ConversationPatch, responses: { 200: ConversationOut } },
  { method: "delete", path: conv, summary: "Delete a conversation (discards a live turn)", responses: { 204: null } },
  { method: "post", path: `${conv}/archive`, summary: "Archive", responses: { 200: ConversationOut } },
  { method: "post", path: `${conv}/unarchive`, summary: "Restore from the archive", responses: { 200: ConversationOut } },
  { method: "get", path: `${conv}/agent-config`, summary: "The agent's cwd and model", responses: { 200: AgentConfigOut } },
  {
    method: "patch",
    path: `${conv}/agent-config`,
    summary: "Set or clear the agent's model (keeps cwd and session)",
    body: AgentConfigPatch,
    responses: { 200: AgentConfigOut },
  },
  {
    method: "get",
    path: `${conv}/messages`,
    summary: "Messages, newest page first, ascending within the page",
    query: MessageListQuery,
    responses: { 200: MessageListOut },
  },
  {
    method: "post",
    path: `${conv}/messages`,
    summary: "Send a message: starts a turn now or queues it (fire-and-return)",
    body: SendMessageRequest,
    responses: { 202: SendMessageAck },
  },
  {
    method: "get",
    path: `${conv}/events`,
    summary: "The conversation's live bus (SSE); resume with Last-Event-ID or ?after=",
    responses: { 200: { sse: ChatEvent } },
  },
  { method: "get", path: `${conv}/pending`, summary: "The pending queue", responses: { 200: PendingQueueOut } },
  {
    method: "put",
    path: `${conv}/pending`,
    summary: "Replace the pending queue (drop, reorder, resume); unpauses",
    body: PendingQueueIn,
    responses: { 200: PendingQueueOut },
  },
  { method: "post", path: `${conv}/interrupt`, summary: "Stop the running turn; pauses the queue", responses: { 204: null } },
  { method: "get", path: "/mcp/servers", summary: "Upstream MCP servers with their status and tools", responses: { 200: McpServerListOut } },
  { method: "post", path: "/mcp/servers", summary: "Add an upstream MCP server", body: McpServerCreate, responses: { 201: McpServerOut } },
  { method: "get", path: mcpServer, summary: "One upstream MCP server", responses: { 200: McpServerOut } },
  { method: "patch", path: mcpServer, summary: "Change an upstream MCP server (restarts it)", body: McpServerPatch, responses: { 200: McpServerOut } },
  { method: "delete", path: mcpServer, summary: "Remove an upstream MCP server", responses: { 204: null } },
  { method: "post", path: `${mcpServer}/enable`, summary: "Enable (start) an upstream MCP server", responses: { 200: McpServerOut } },
  { method: "post", path: `${mcpServer}/disable`, summary: "Disable (stop) an upstream MCP server", responses: { 200: McpServerOut } },
  { method: "get", path: "/mcp/tools", summary: "The gateway's catalogue: Coffer's tools and every upstream's", responses: { 200: McpToolListOut } },
  {
    method: "get",
    path: "/mcp/invocations",
    summary: "The gateway's invocation log, newest first (who, tool, when, duration, outcome)",
    query: McpInvocationListQuery,
    responses: { 200: McpInvocationListOut },
  },
  ...SETTINGS_ROUTES,
  ...VAULT_ROUTES,
];
