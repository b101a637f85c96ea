import { z } from "zod";
import { AgentKey, ConversationId, Timestamp } from "../wire/common.js";

/**
 * Where a conversation's IM chat is: `channel` is the platform ("telegram"), `chat_id` the chat,
 * `channel_id` the configured channel (bot) it came through, when there is one; `thread_id` the
 * thread of a group it lives in (a Telegram forum topic, a Discord thread), null for the chat itself.
 * For a thread the daemon adds the platform's own words, so every surface names it as the owner
 * sees it there: `thread_noun` ("topic", "thread") and `place_noun` ("group", "channel").
 */
export const ChannelBinding = z.object({
  channel: z.string(),
  chat_id: z.string(),
  channel_id: z.string().nullable().optional(),
  thread_id: z.string().nullable().optional(),
  thread_noun: z.string().optional(),
  place_noun: z.string().optional(),
});
export type ChannelBinding = z.infer<typeof ChannelBinding>;

/**
 * Why a conversation is in a search result (`q` set): the best-matching message (null when only
 * the title matched) and a short plain-text snippet around the match; `highlights` are
 * [start, end) offsets into `snippet` of the matched terms, so every surface marks them alike.
 */
export const SearchMatch = z.object({
  message_id: z.string().nullable(),
  snippet: z.string(),
  highlights: z.array(z.tuple([z.number().int().min(0), z.number().int().min(0)])),
});
export type SearchMatch = z.infer<typeof SearchMatch>;

export const ConversationOut = z.object({
  id: ConversationId,
  agent_key: AgentKey,
  title: z.string(),
  model_id: z.string().nullable().describe("Vestigial legacy model registry override; never read by managed agents."),
  agent_model: z.string().nullable().describe("agent_config.model: the agent's own model for this conversation, or null to inherit."),
  created_at: Timestamp,
  updated_at: Timestamp,
  archived_at: Timestamp.nullable(),
  channel_binding: ChannelBinding.nullable(),
  running: z.boolean().describe("A turn is in flight right now."),
  match: SearchMatch.optional().describe("Only on search results (`q` set): where the query matched."),
});
export type ConversationOut = z.infer<typeof ConversationOut>;

const ModelText = z.string().max(200);

/** Opaque, agent-specific configuration. Managed agents read `cwd` and `model`. */
export const AgentConfigIn = z.record(z.string(), z.unknown());

export const ConversationCreate = z.object({
  agent_key: z.string().min(1).max(64),
  agent_config: AgentConfigIn.nullable().optional(),
  title: z.string().trim().min(1).max(200).optional(),
  channel_binding: ChannelBinding.nullable().optional(),
});
export type ConversationCreate = z.infer<typeof ConversationCreate>;

export const ConversationPatch = z.object({
  title: z.string().trim().min(1).max(200),
});
export type ConversationPatch = z.infer<typeof ConversationPatch>;

const BoolParam = z.enum(["true", "false", "1", "0"]).transform((v) => v === "true" || v === "1");

/** Conversations in a page of the history list when `limit` is not given. */
export const CONVERSATION_PAGE = 50;
/**
 * A page of search results when `limit` is not given: each carries a snippet found for it,
 * so a page costs per row; 25 rows with snippets fill the history column more than once at
 * 1440×900, and the column asks for the next page as it is scrolled (docs/decisions.md,
 * "Speed and footprint (issue 16)").
 */
export const SEARCH_PAGE = 25;

export const ConversationListQuery = z.object({
  archived: BoolParam.optional(),
  q: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(200).optional(),
  cursor: z.string().max(200).optional(),
});
export type ConversationListQuery = z.infer<typeof ConversationListQuery>;

/** What a unique id prefix (like git's) resolves to; an ambiguous one is CONVERSATION_ID_AMBIGUOUS. */
export const ConversationIdCandidate = z.object({
  id: ConversationId,
  title: z.string(),
  updated_at: Timestamp,
  archived: z.boolean(),
});
export type ConversationIdCandidate = z.infer<typeof ConversationIdCandidate>;

export const ConversationListOut = z.object({
  conversations: z.array(ConversationOut),
  next_cursor: z.string().nullable(),
});
export type ConversationListOut = z.infer<typeof ConversationListOut>;

export const AgentConfigOut = z.object({ cwd: z.string().nullable(), model: z.string().nullable() });
export type AgentConfigOut = z.infer<typeof AgentConfigOut>;

export const AgentConfigPatch = z.object({
  model: ModelText.nullable().optional().describe("Blank or null clears the override (inherit the agent's default)."),
});
export type AgentConfigPatch = z.infer<typeof AgentConfigPatch>;
