import { isAbsolute, relative, resolve, sep } from "node:path";

/**
 * Where a kept session file goes back to: `rel` under the CLI's home, or null when `rel` would
 * land outside it (a tampered meta.json must not make Coffer write anywhere else).
 */
export function underHome(home: string, rel: string): string | null {
  if (isAbsolute(rel)) return null;
  const target = resolve(home, rel);
  const back = relative(resolve(home), target);
  return back && !back.startsWith(`..${sep}`) && back !== ".." && !isAbsolute(back) ? target : null;
}

/** `path` relative to `home`, or null when it is not under it. */
export function relativeToHome(home: string, path: string): string | null {
  const rel = relative(resolve(home), resolve(path));
  return rel && !rel.startsWith("..") && !isAbsolute(rel) ? rel : null;
}
