import type { DocumentSource, SourceFile, UploadedFile } from "../../application/vault/vault-ports.js";
import { decodeDocument, inSkippedFolder, unsupportedReason } from "./document-formats.js";

/**
 * Documents uploaded from the page: the same rules as a folder on disk (text formats only,
 * hidden and tooling folders left out, 2 MB and UTF-8 checks), read from memory.
 */
export class UploadedDocumentSource implements DocumentSource {
  private readonly byPath: ReadonlyMap<string, Uint8Array>;

  constructor(private readonly files: readonly UploadedFile[]) {
    this.byPath = new Map(files.map((f) => [f.path, f.bytes]));
  }

  async scan(): Promise<{ files: SourceFile[]; skipped: { filename: string; reason: string }[] }> {
    const files: SourceFile[] = [];
    const skipped: { filename: string; reason: string }[] = [];
    for (const f of [...this.files].sort((a, b) => a.path.localeCompare(b.path))) {
      // A folder on disk never yields these (the walk does not enter them); an upload says nothing of them either.
      if (inSkippedFolder(f.path)) continue;
      const reason = unsupportedReason(f.path);
      if (reason) skipped.push({ filename: f.path, reason });
      else files.push({ path: `uploaded from the page: ${f.path}`, filename: f.path });
    }
    return { files, skipped };
  }

  async read(file: SourceFile): Promise<{ text: string } | { skip: string }> {
    const bytes = this.byPath.get(file.filename);
    return bytes ? decodeDocument(bytes) : { skip: "not in the upload" };
  }
}
