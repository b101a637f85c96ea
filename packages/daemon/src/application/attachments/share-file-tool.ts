import { ShareFileInput, type AttachmentOut } from "@coffer/protocol";
import type { AuditSink } from "../audit-ports.js";
import type { BuiltinTool, ToolOutcome } from "../gateway/builtin-tools.js";
import type { GatewayPrincipal } from "../gateway/gateway-ports.js";
import type { Clock } from "../ports.js";
import type { ShareRefusal, ShareRoots, ShareableFiles } from "./share-file-ports.js";

export const SHARE_FILE_TOOL_NAME = "share_file";

/** What the agent reads when a path is refused: the reason and what to do instead, never the file. */
const REFUSAL_TEXT: Record<ShareRefusal, string> = {
  not_found: "no such file",
  outside_workspace: "the file is outside your working directory; copy it into the working directory first",
  symlink_escape: "the path is a symbolic link leading outside your working directory",
  data_dir: "files in Coffer's data directory cannot be shared",
  not_a_file: "only a regular file can be shared (not a directory or a device)",
  too_large: "the file is over the attachment size limit",
};

/** Media types by extension: the page shows images inline and offers the rest as downloads. */
const MEDIA_TYPES: Record<string, string> = {
  png: "image/png", jpg: "image/jpeg", jpeg: "image/jpeg", gif: "image/gif", webp: "image/webp", svg: "image/svg+xml",
  pdf: "application/pdf", txt: "text/plain", md: "text/markdown", csv: "text/csv", json: "application/json",
  html: "text/html", zip: "application/zip",
};

export function mediaTypeOf(name: string): string {
  const dot = name.lastIndexOf(".");
  return (dot > 0 ? MEDIA_TYPES[name.slice(dot + 1).toLowerCase()] : undefined) ?? "application/octet-stream";
}

export interface ShareFileDeps {
  readonly files: ShareableFiles;
  /** The conversation's working directory and the other roots; null when the conversation is gone. */
  readonly rootsFor: (conversationId: string) => ShareRoots | null;
  /** Stores the bytes through the attachment service (the one attachment model). */
  readonly upload: (name: string, mediaType: string, body: AsyncIterable<Uint8Array>) => Promise<AttachmentOut>;
  /** Links it to the running turn's assistant message and tells the page live; false when no turn runs. */
  readonly attach: (conversationId: string, attachment: AttachmentOut, caption: string | undefined) => boolean;
  readonly audit: AuditSink;
  readonly clock: Clock;
}

/**
 * `coffer__share_file`: the agent attaches a file it made to its reply. Only a file the agent
 * could read anyway passes the gate (ShareableFiles); a refusal is a tool error the agent reads
 * and an audit row `share_file_refused` with the reason (the path, never the content).
 */
export function shareFileTool(deps: ShareFileDeps): BuiltinTool<typeof ShareFileInput> {
  return {
    name: SHARE_FILE_TOOL_NAME,
    description:
      "Attach a file you made (a chart, a report, an export) to your reply, so the owner sees it on the page, the phone " +
      "and the CLI. The file must be inside your working directory. Returns {attachment_id, name, size}.",
    input: ShareFileInput,
    readOnly: false,
    run: (args, context) => share(deps, args, context.principal),
  };
}

async function share(deps: ShareFileDeps, args: ShareFileInput, principal: GatewayPrincipal | undefined): Promise<ToolOutcome> {
  if (principal?.kind !== "agent") return { ok: false, error: "coffer__share_file attaches to an agent's reply; only a managed agent's turn can call it" };
  const conversationId = principal.conversationId;
  const roots = deps.rootsFor(conversationId);
  if (!roots) return { ok: false, error: "this conversation no longer exists" };
  const checked = deps.files.check(args.path, roots);
  const details = { agent: principal.agent, conversation_id: conversationId, path: args.path };
  if (!checked.ok) {
    deps.audit("agent", "share_file_refused", { ...details, reason: checked.reason }, deps.clock.now());
    return { ok: false, error: `cannot share ${args.path}: ${REFUSAL_TEXT[checked.reason]}` };
  }
  const attachment = await deps.upload(checked.name, mediaTypeOf(checked.name), deps.files.read(checked.realPath));
  // An upload no message links is swept by retention after a day, so a turn that ended meanwhile leaves nothing behind.
  if (!deps.attach(conversationId, attachment, args.caption)) return { ok: false, error: "no reply is being written in this conversation now; share the file during your turn" };
  deps.audit("agent", "file_shared", { ...details, attachment_id: attachment.id, name: attachment.name, size: attachment.size }, deps.clock.now());
  return { ok: true, value: { attachment_id: attachment.id, name: attachment.name, size: attachment.size } };
}
