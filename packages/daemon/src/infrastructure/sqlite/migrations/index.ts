import { sql as initial } from "./0001_initial.js";
import { sql as searchPrefixIndex } from "./0002_search_prefix_index.js";
import { sql as vault } from "./0003_vault.js";
import { sql as mcpGateway } from "./0004_mcp_gateway.js";
import { sql as connectionsCredentialsRetention } from "./0005_connections_credentials_retention.js";
import { sql as searchChunks } from "./0006_search_chunks.js";
import { sql as vaultStemmedSearch } from "./0007_vault_stemmed_search.js";
import { sql as messageOutcome } from "./0008_message_outcome.js";
import { sql as channels } from "./0009_channels.js";
import { sql as ownerInTheLoop } from "./0010_owner_in_the_loop.js";
import { sql as agentProcesses } from "./0011_agent_processes.js";
import { sql as searchMessageStarts } from "./0012_search_message_starts.js";
import { sql as invocationConversation } from "./0013_invocation_conversation.js";
import { sql as outboxButtons } from "./0014_outbox_buttons.js";
import { sql as attachments } from "./0015_attachments.js";
import { sql as voiceMessages } from "./0016_voice_messages.js";
import { sql as outboxFiles } from "./0017_outbox_files.js";
import { sql as channelAlbumParts } from "./0018_channel_album_parts.js";
import { sql as schedules } from "./0019_schedules.js";
import { sql as channelCredentials } from "./0020_channel_credentials.js";
import { sql as channelCursor } from "./0021_channel_cursor.js";
import { sql as channelTopics } from "./0022_channel_topics.js";
import { sql as sendLater } from "./0023_send_later.js";
import { sql as sharedFileCaption } from "./0024_shared_file_caption.js";

export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}

/** Applied in order at start; never edit one that has landed, add the next number. */
export const MIGRATIONS: readonly Migration[] = [
  { version: 1, name: "0001_initial", sql: initial },
  { version: 2, name: "0002_search_prefix_index", sql: searchPrefixIndex },
  { version: 3, name: "0003_vault", sql: vault },
  { version: 4, name: "0004_mcp_gateway", sql: mcpGateway },
  { version: 5, name: "0005_connections_credentials_retention", sql: connectionsCredentialsRetention },
  { version: 6, name: "0006_search_chunks", sql: searchChunks },
  { version: 7, name: "0007_vault_stemmed_search", sql: vaultStemmedSearch },
  { version: 8, name: "0008_message_outcome", sql: messageOutcome },
  { version: 9, name: "0009_channels", sql: channels },
  { version: 10, name: "0010_owner_in_the_loop", sql: ownerInTheLoop },
  { version: 11, name: "0011_agent_processes", sql: agentProcesses },
  { version: 12, name: "0012_search_message_starts", sql: searchMessageStarts },
  { version: 13, name: "0013_invocation_conversation", sql: invocationConversation },
  { version: 14, name: "0014_outbox_buttons", sql: outboxButtons },
  { version: 15, name: "0015_attachments", sql: attachments },
  { version: 16, name: "0016_voice_messages", sql: voiceMessages },
  { version: 17, name: "0017_outbox_files", sql: outboxFiles },
  { version: 18, name: "0018_channel_album_parts", sql: channelAlbumParts },
  { version: 19, name: "0019_schedules", sql: schedules },
  { version: 20, name: "0020_channel_credentials", sql: channelCredentials },
  { version: 21, name: "0021_channel_cursor", sql: channelCursor },
  { version: 22, name: "0022_channel_topics", sql: channelTopics },
  { version: 23, name: "0023_send_later", sql: sendLater },
  { version: 24, name: "0024_shared_file_caption", sql: sharedFileCaption },
];
