import type { UploadFile } from "@coffer/protocol";
import type { UploadedFile } from "../../application/vault/vault-ports.js";

/** An upload's files as bytes: base64 is the JSON transport's concern, not the import's. */
export function decodeUploads(files: readonly UploadFile[]): UploadedFile[] {
  return files.map((f) => ({ path: f.path, bytes: Buffer.from(f.content_base64, "base64") }));
}
