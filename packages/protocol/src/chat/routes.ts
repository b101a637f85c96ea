import { z } from "zod";
import { AgentListOut, AgentModelListOut } from "./agents.js";
import { AuditListOut, AuditListQuery } from "./audit.js";
import { LoginCodeOut, LoginCodeRequest, ProofOut, ProofRequest, SessionCreate, SessionOut } from "./auth.js";
import {
  AgentConfigOut,
  AgentConfigPatch,
  ConversationCreate,
  ConversationIdCandidate,
  ConversationListOut,
  ConversationListQuery,
  ConversationOut,
  ConversationPatch,
} from "./conversations.js";
import { ChatEvent, ConversationListEvent } from "./events.js";
import { HealthOut } from "./health.js";
import { ConversationContextOut } from "./context-usage.js";
import { PrewarmOut, PrewarmRequest, SystemStatsOut } from "./footprint.js";
import { AnswerQuestionRequest, OpenQuestionListOut, QuestionListOut } from "./questions.js";
import { EditHoldIn, EditHoldOut } from "./queue-edit.js";
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
import type { RouteSpec } from "../wire/route-spec.js";

/** The chat surface: auth, agents, audit, conversations, turns and the MCP gateway's servers. */
const conv = "/chat/conversations/{id}";
const mcpServer = "/mcp/servers/{name}";

export const CHAT_ROUTES = {
  health: { method: "get", path: "/health", summary: "Liveness and version", responses: { 200: HealthOut } },
  proveDaemon: {
    method: "post",
    path: "/auth/proof",
    summary: "The daemon proves it holds the key (token or session secret) before any credential is sent",
    auth: "none",
    body: ProofRequest,
    responses: { 200: ProofOut },
  },
  openSession: {
    method: "post",
    path: "/auth/session",
    summary: "Exchange the long-lived token or a login code for a session that dies with this daemon process",
    auth: "token_or_login_code",
    body: SessionCreate,
    responses: { 201: SessionOut },
  },
  issueLoginCode: {
    method: "post",
    path: "/auth/login-code",
    summary: "A single-use login code, valid for 60 s, optionally with a private file that forwards a browser to it (coffer open)",
    // Optional: a bare POST (no body) asks for a code alone, as clients did before the hand-off.
    body: LoginCodeRequest.optional(),
    responses: { 201: LoginCodeOut },
  },
  signOut: { method: "post", path: "/auth/sign-out", summary: "End the page session this request carries (the token ends nothing)", responses: { 204: null } },
  openApi: { method: "get", path: "/openapi.json", summary: "This document", responses: { 200: z.record(z.string(), z.unknown()) } },
  listAgents: { method: "get", path: "/chat/agents", summary: "Registered agents and their availability", responses: { 200: AgentListOut } },
  listAgentModels: {
    method: "get",
    path: "/chat/agents/{agent}/models",
    summary: "The models to suggest for one agent: its own list (cached) and recently used ones",
    responses: { 200: AgentModelListOut },
  },
  listAudit: { method: "get", path: "/audit", summary: "The audit log, newest first", query: AuditListQuery, responses: { 200: AuditListOut } },
  conversationListEvents: {
    method: "get",
    path: "/chat/events",
    summary: "Live conversation-list changes, owner alerts and logged tool calls (SSE)",
    responses: { 200: { sse: ConversationListEvent } },
  },
  listConversations: {
    method: "get",
    path: "/chat/conversations",
    summary: "List conversations, newest first",
    query: ConversationListQuery,
    responses: { 200: ConversationListOut },
  },
  resolveConversationId: {
    method: "get",
    path: "/chat/conversation-ids/{prefix}",
    summary: "The one conversation (active or archived) whose id starts with this prefix; 400 CONVERSATION_ID_AMBIGUOUS lists the candidates",
    responses: { 200: ConversationIdCandidate },
  },
  createConversation: {
    method: "post",
    path: "/chat/conversations",
    summary: "Create a conversation with an agent",
    body: ConversationCreate,
    responses: { 201: ConversationOut },
  },
  getConversation: { method: "get", path: conv, summary: "Get a conversation", responses: { 200: ConversationOut } },
  renameConversation: { method: "patch", path: conv, summary: "Rename a conversation", body: ConversationPatch, responses: { 200: ConversationOut } },
  deleteConversation: { method: "delete", path: conv, summary: "Delete a conversation (discards a live turn)", responses: { 204: null } },
  archiveConversation: { method: "post", path: `${conv}/archive`, summary: "Archive", responses: { 200: ConversationOut } },
  unarchiveConversation: { method: "post", path: `${conv}/unarchive`, summary: "Restore from the archive", responses: { 200: ConversationOut } },
  getAgentConfig: { method: "get", path: `${conv}/agent-config`, summary: "The agent's cwd and model", responses: { 200: AgentConfigOut } },
  patchAgentConfig: {
    method: "patch",
    path: `${conv}/agent-config`,
    summary: "Set or clear the agent's model (keeps cwd and session)",
    body: AgentConfigPatch,
    responses: { 200: AgentConfigOut },
  },
  listMessages: {
    method: "get",
    path: `${conv}/messages`,
    summary: "Messages, newest page first, ascending within the page",
    query: MessageListQuery,
    responses: { 200: MessageListOut },
  },
  sendMessage: {
    method: "post",
    path: `${conv}/messages`,
    summary: "Send a message: starts a turn now or queues it (fire-and-return)",
    body: SendMessageRequest,
    responses: { 202: SendMessageAck },
  },
  conversationEvents: {
    method: "get",
    path: `${conv}/events`,
    summary: "The conversation's live bus (SSE); resume with Last-Event-ID or ?after=",
    responses: { 200: { sse: ChatEvent } },
  },
  getPending: { method: "get", path: `${conv}/pending`, summary: "The pending queue", responses: { 200: PendingQueueOut } },
  setPending: {
    method: "put",
    path: `${conv}/pending`,
    summary: "Replace the pending queue (drop, reorder, resume); unpauses",
    body: PendingQueueIn,
    responses: { 200: PendingQueueOut },
  },
  steerPending: {
    method: "post",
    path: `${conv}/pending/{pid}/steer`,
    summary: "Send a queued message now: steer it into the running turn (or start it when idle); falls back to the queue's head",
    responses: { 202: SendMessageAck },
  },
  interruptTurn: { method: "post", path: `${conv}/interrupt`, summary: "Stop the running turn; pauses the queue", responses: { 204: null } },
  listMcpServers: { method: "get", path: "/mcp/servers", summary: "Upstream MCP servers with their status and tools", responses: { 200: McpServerListOut } },
  createMcpServer: { method: "post", path: "/mcp/servers", summary: "Add an upstream MCP server", body: McpServerCreate, responses: { 201: McpServerOut } },
  getMcpServer: { method: "get", path: mcpServer, summary: "One upstream MCP server", responses: { 200: McpServerOut } },
  updateMcpServer: { method: "patch", path: mcpServer, summary: "Change an upstream MCP server (restarts it)", body: McpServerPatch, responses: { 200: McpServerOut } },
  deleteMcpServer: { method: "delete", path: mcpServer, summary: "Remove an upstream MCP server", responses: { 204: null } },
  enableMcpServer: { method: "post", path: `${mcpServer}/enable`, summary: "Enable (start) an upstream MCP server", responses: { 200: McpServerOut } },
  disableMcpServer: { method: "post", path: `${mcpServer}/disable`, summary: "Disable (stop) an upstream MCP server", responses: { 200: McpServerOut } },
  listMcpTools: { method: "get", path: "/mcp/tools", summary: "The gateway's catalogue: Coffer's tools and every upstream's", responses: { 200: McpToolListOut } },
  listMcpInvocations: {
    method: "get",
    path: "/mcp/invocations",
    summary: "The gateway's invocation log, newest first (who, tool, when, duration, outcome)",
    query: McpInvocationListQuery,
    responses: { 200: McpInvocationListOut },
  },
} as const satisfies Record<string, RouteSpec>;

/** The agent's questions to the owner (spread into ROUTES). */
export const QUESTION_ROUTES = {
  listOpenQuestions: {
    method: "get",
    path: "/chat/questions",
    summary: "Every question still waiting for the owner, across conversations, oldest first",
    responses: { 200: OpenQuestionListOut },
  },
  listQuestions: {
    method: "get",
    path: "/chat/conversations/{id}/questions",
    summary: "The latest turn's questions to the owner: open, answered or cancelled",
    responses: { 200: QuestionListOut },
  },
  answerQuestion: {
    method: "post",
    path: "/chat/conversations/{id}/questions/{qid}/answer",
    summary: "Answer the agent's open question; the first answer wins (a second gets 409 with the winner)",
    body: AnswerQuestionRequest,
    responses: { 204: null },
  },
} as const satisfies Record<string, RouteSpec>;

/** How full a conversation's context is (spread into ROUTES). */
export const CONTEXT_ROUTES = {
  getContextUsage: {
    method: "get",
    path: "/chat/conversations/{id}/context",
    summary: "How full the conversation's context was after its latest turn, and the model's window when known",
    responses: { 200: ConversationContextOut },
  },
} as const satisfies Record<string, RouteSpec>;

/** Edit holds on queued messages (spread into ROUTES). */
export const QUEUE_EDIT_ROUTES = {
  holdPending: {
    method: "post",
    path: "/chat/conversations/{id}/pending/{pid}/hold",
    summary: "Take or renew an edit hold on a queued message: the queue stops in front of it until saved, released or lapsed",
    body: EditHoldIn,
    responses: { 200: EditHoldOut },
  },
  releasePendingHold: {
    method: "delete",
    path: "/chat/conversations/{id}/pending/{pid}/hold/{hold}",
    summary: "End an edit hold (the edit was cancelled or its page is leaving); the queue runs on. A hold already gone is fine",
    responses: { 204: null },
  },
} as const satisfies Record<string, RouteSpec>;

/** Speed and footprint: what the daemon holds, and pre-warm (spread into ROUTES). */
export const FOOTPRINT_ROUTES = {
  systemStats: {
    method: "get",
    path: "/system/stats",
    summary: "What the daemon holds: warm agent processes and their memory, turns running, stream listeners, database size",
    responses: { 200: SystemStatsOut },
  },
  prewarmAgent: {
    method: "post",
    path: "/chat/agents/{agent}/prewarm",
    summary: "The owner is typing: start the agent's process ahead of the first turn (idempotent, within the warm pool's cap)",
    body: PrewarmRequest,
    responses: { 202: PrewarmOut },
  },
} as const satisfies Record<string, RouteSpec>;

/**
 * Every route of the chat room in one table: what the page's first load calls. The one `ROUTES`
 * table (routes.ts) joins every area for the daemon, the CLI and the OpenAPI document; the page
 * calls each area through that area's own table, so Vault's and Settings' schemas load with their
 * screens (docs/decisions.md, "The page's first load carries only the chat's schemas").
 */
export const CHAT_AREA_ROUTES = { ...CHAT_ROUTES, ...QUESTION_ROUTES, ...CONTEXT_ROUTES, ...QUEUE_EDIT_ROUTES, ...FOOTPRINT_ROUTES } as const;
