import { mkdir } from "node:fs/promises";

/**
 * The default workspace (COFFER_WORKSPACE, `~/coffer-workspace`) is made on first use, 0700:
 * what agents write there is the owner's alone. A folder that already exists — one the owner
 * made or chose — keeps its mode: Coffer does not chmod the owner's folders.
 */
export async function ensureWorkspaceDir(dir: string): Promise<string> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  return dir;
}
