import { ATTACHMENTS_PER_MESSAGE } from "@coffer/protocol";
import type { CofferApi } from "../../api/client.js";
import { humanSize } from "../../ui/human-size.js";

/**
 * What becomes of picked, pasted or dropped files: taken (to upload) or refused with the file's
 * name and why. Its own chunk, fetched with the first file (use-composer-files.ts): the page's
 * first load is on a budget and most messages carry no file.
 */
export interface Intake {
  readonly taken: File[];
  readonly refused: string[];
}

/** The cap, read once per page (per API) from the daemon; a failed read is tried again next time. */
const caps = new WeakMap<CofferApi, Promise<number>>();
function maxBytes(api: CofferApi): Promise<number | null> {
  let read = caps.get(api);
  if (!read) {
    read = api.attachmentLimits().then((l) => l.max_bytes);
    caps.set(api, read);
    read.catch(() => caps.delete(api));
  }
  // Unreadable: no check here; the daemon still refuses a file over its cap on its own.
  return read.catch(() => null);
}

/** `already`: how many files the composer holds (a message carries at most ATTACHMENTS_PER_MESSAGE). */
export async function intake(api: CofferApi | null, picked: readonly File[], folders: readonly string[], already: number): Promise<Intake> {
  const limit = api ? await maxBytes(api) : null;
  const refused = folders.map((name) => `${name} is a folder: attach the files in it, or a zip of it.`);
  const taken: File[] = [];
  for (const file of picked) {
    if (file.size === 0) refused.push(`${file.name} is empty (0 bytes): there is nothing to attach.`);
    else if (limit !== null && file.size > limit) refused.push(`${file.name} is ${humanSize(file.size)}, over the ${humanSize(limit)} limit for one file.`);
    else if (already + taken.length >= ATTACHMENTS_PER_MESSAGE) refused.push(`${file.name} was not attached: a message carries at most ${ATTACHMENTS_PER_MESSAGE} files.`);
    else taken.push(file);
  }
  return { taken, refused };
}
