import type { AttachmentOut } from "@coffer/protocol";
import { normalMediaType, type AttachmentService } from "../attachments/attachment-service.js";
import type { AlarmClock } from "../timing/alarm-ports.js";
import { AttachmentEmpty, AttachmentTooLarge } from "../../domain/errors.js";
import { downloadFailedLine, emptyFileLine, overCapLine, overPlatformLimitLine } from "./phone-file-lines.js";
import { PlatformFailure, type FileChunks, type InboundFile } from "./ports.js";

export interface PhoneFileDeps {
  readonly attachments: Pick<AttachmentService, "upload" | "release" | "maxBytes">;
  /** The platform's limit on files a bot may download (Telegram: 20 MB); null = none. */
  readonly downloadLimitBytes: number | null;
  /** The platform as the owner names it ("Telegram", "Discord"), in the lines the phone gets. */
  readonly platformName: string;
  download(fileId: string, signal: AbortSignal): Promise<FileChunks>;
  /** Times the stall watch (tests move it by hand). */
  readonly alarms: AlarmClock;
  /** A download that brings no byte for this long is given up (it would hold the chat's poll loop). */
  readonly stallMs: number;
  /** The channel stopping: a download in flight is called off, and nothing is replied. */
  readonly stopping: AbortSignal;
}

/** The files stored, in order, or the one line that says why none was. */
export type PhoneFilesOutcome = { readonly stored: AttachmentOut[] } | { readonly refused: string };

/** Why a download was called off by the stall watch (an abort reason, told apart from a stop). */
const STALLED = new Error("download stalled");

/**
 * Fetches a phone message's files into the attachment store: all of them or none. A file known
 * to be over the platform's limit or the attachment cap is refused before anything is fetched;
 * a failed, cut or stalled download, or the cap found while storing, refuses the message and
 * releases what was already stored (docs/decisions.md, "Telegram inbound files").
 */
export async function storePhoneFiles(deps: PhoneFileDeps, files: readonly InboundFile[]): Promise<PhoneFilesOutcome> {
  const cap = deps.attachments.maxBytes;
  for (const f of files) {
    if (f.size === null) continue;
    // The cap first: a file no surface takes must not be told to go through the page or the CLI
    // (the platform's line offers them), so a 60 MB file gets the cap's line, not Telegram's.
    if (f.size > cap) return { refused: overCapLine(f.name, f.size, cap) };
    if (deps.downloadLimitBytes !== null && f.size > deps.downloadLimitBytes) return { refused: overPlatformLimitLine(f.name, f.size, deps.downloadLimitBytes, cap, deps.platformName) };
  }
  const stored: AttachmentOut[] = [];
  try {
    for (const f of files) {
      const outcome = await storeOne(deps, f);
      if ("refused" in outcome) {
        deps.attachments.release(stored.map((a) => a.id));
        return outcome;
      }
      stored.push(outcome.stored);
    }
  } catch (err) {
    // A stop: the update runs again at the next start and stores its files then.
    deps.attachments.release(stored.map((a) => a.id));
    throw err;
  }
  return { stored };
}

async function storeOne(deps: PhoneFileDeps, f: InboundFile): Promise<{ stored: AttachmentOut } | { refused: string }> {
  const watch = new AbortController();
  let cancel = () => {};
  // Re-armed on every chunk: a slow but moving download is fine, silence is not.
  const rearm = () => {
    cancel();
    cancel = deps.alarms.at(deps.alarms.now() + deps.stallMs, () => watch.abort(STALLED));
  };
  const signal = AbortSignal.any([deps.stopping, watch.signal]);
  rearm();
  try {
    const chunks = await deps.download(f.fileId, signal);
    // A type the sender's app made up is still a file: stored as plain bytes, never refused.
    const mediaType = normalMediaType(f.mediaType) ?? "application/octet-stream";
    return { stored: await deps.attachments.upload(f.name, mediaType, watched(chunks, rearm)) };
  } catch (err) {
    if (deps.stopping.aborted) throw err;
    return { refused: watch.signal.aborted ? downloadFailedLine(f.name, deps.platformName) : refusalOf(deps, f, err) };
  } finally {
    cancel();
  }
}

async function* watched(chunks: FileChunks, onChunk: () => void): FileChunks {
  for await (const chunk of chunks) {
    onChunk();
    yield chunk;
  }
}

function refusalOf(deps: PhoneFileDeps, f: InboundFile, err: unknown): string {
  if (err instanceof AttachmentTooLarge) return overCapLine(f.name, f.size, deps.attachments.maxBytes);
  if (err instanceof AttachmentEmpty) return emptyFileLine(f.name);
  // The platform refuses a file over its limit outright; without a size in the update, that is
  // the likely reason (with a size under the limit it is some other refusal: a failed fetch).
  const overLimit = err instanceof PlatformFailure && err.kind === "rejected" && f.size === null && deps.downloadLimitBytes !== null;
  if (overLimit) return overPlatformLimitLine(f.name, null, deps.downloadLimitBytes!, deps.attachments.maxBytes, deps.platformName);
  // Anything else (a cut stream, a network error, a storage fault) still gets its line: never a silent drop.
  return downloadFailedLine(f.name, deps.platformName);
}
