import type { AttachmentService } from "./application/attachments/attachment-service.js";
import { shareFileTool } from "./application/attachments/share-file-tool.js";
import type { AuditSink } from "./application/audit-ports.js";
import type { BuiltinToolRegistry } from "./application/gateway/builtin-tools.js";
import type { Clock, ConversationStore } from "./application/ports.js";
import type { TurnSharedFiles } from "./application/turns/shared-files.js";
import { FsShareableFiles } from "./infrastructure/system/shareable-files.js";

export interface ShareFileWiring {
  readonly home: string;
  /** The default working directory (COFFER_WORKSPACE), for a conversation whose config names none. */
  readonly workspace: string;
  readonly conversations: Pick<ConversationStore, "getConversation">;
  readonly attachments: AttachmentService;
  readonly files: TurnSharedFiles;
  readonly audit: AuditSink;
  readonly clock: Clock;
}

/**
 * Part of the composition root: registers coffer__share_file (issue 25, "Out"). The agent may
 * share from its conversation's working directory only: the agent-files copies of what the owner
 * sent live in the data dir, which is never shareable (the owner has those files already).
 */
export function registerShareFile(tools: BuiltinToolRegistry, w: ShareFileWiring): void {
  tools.register(
    shareFileTool({
      files: new FsShareableFiles(),
      rootsFor: (conversationId) => {
        const conversation = w.conversations.getConversation(conversationId);
        if (!conversation) return null;
        return {
          workspace: conversation.agentConfig.cwd ?? w.workspace,
          dataDir: w.home,
          maxBytes: w.attachments.maxBytes,
        };
      },
      upload: (name, mediaType, body) => w.attachments.upload(name, mediaType, body),
      attach: (conversationId, attachment, caption) => w.files.attach(conversationId, attachment, caption),
      audit: w.audit,
      clock: w.clock,
    }),
  );
}
