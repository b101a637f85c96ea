/**
 * Why coffer__share_file refused a path (audited as `share_file_refused`, never with content).
 * Each reason is one the agent can act on, so the tool error names it.
 */
export type ShareRefusal =
  | "not_found"
  | "outside_workspace"
  | "symlink_escape"
  | "data_dir"
  | "not_a_file"
  | "too_large";

/** Where an agent may share from: its conversation's working directory (+ the agent-files folder). */
export interface ShareRoots {
  readonly workspace: string;
  readonly agentFiles?: string;
  /** The daemon's data dir: never shareable, even when it sits inside the workspace. */
  readonly dataDir: string;
  readonly maxBytes: number;
}

export type ShareCheck =
  | { readonly ok: true; readonly realPath: string; readonly name: string; readonly size: number }
  | { readonly ok: false; readonly reason: ShareRefusal };

/** Resolves an agent-given path and says whether it may be shared (only files the agent could read anyway). */
export interface ShareableFiles {
  check(path: string, roots: ShareRoots): ShareCheck;
  /** The bytes of a file `check` accepted, streamed (the attachment service hashes as it stores). */
  read(realPath: string): AsyncIterable<Uint8Array>;
}
