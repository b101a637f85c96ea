/**
 * The one-line replies the phone gets when a file it sent does not reach the agent. Each names
 * the file, says why, and says that nothing was sent (the caption neither: the owner resends the
 * whole message, never finds half of it in the thread).
 */

/** `25.3 MB`, `20 MB`, `300 KB`: as a phone shows sizes. */
export function sizeText(bytes: number): string {
  if (bytes < 1024 * 1024) return `${Math.max(1, Math.round(bytes / 1024))} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1).replace(/\.0$/, "")} MB`;
}

function named(name: string, size: number | null): string {
  return size === null ? `“${name}”` : `“${name}” (${sizeText(size)})`;
}

/** The way round the platform's limit: the other two surfaces take files up to Coffer's own cap. */
function otherWays(capBytes: number): string {
  return `Send it from the page or with \`coffer chat send --attach\`, which take files up to ${sizeText(capBytes)}.`;
}

/** Over the Bot API's download limit for bots (known from the update, or getFile refused it). */
export function overPlatformLimitLine(name: string, size: number | null, limitBytes: number, capBytes: number, platform: string): string {
  return `⚠️ ${named(name, size)} is over ${platform}'s ${sizeText(limitBytes)} limit for files a bot may download, so nothing was sent. ${otherWays(capBytes)}`;
}

/** Over COFFER_ATTACHMENT_MAX_MB: no surface would take it. */
export function overCapLine(name: string, size: number | null, capBytes: number): string {
  return `⚠️ ${named(name, size)} is over the ${sizeText(capBytes)} limit for attached files (COFFER_ATTACHMENT_MAX_MB), so nothing was sent. Send a smaller file, or put it in the workspace and name its path.`;
}

/** The download failed, was cut off or stalled. */
export function downloadFailedLine(name: string, platform: string): string {
  return `⚠️ “${name}” could not be fetched from ${platform} (the download failed or stalled), so nothing was sent. Please send it again.`;
}

export function emptyFileLine(name: string): string {
  return `⚠️ “${name}” is empty, so nothing was sent.`;
}
