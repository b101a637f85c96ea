import { basename, extname } from "node:path";

/** Text formats an import reads as documents: prose, data and source code. */
const TEXT_EXTENSIONS = new Set(
  (
    "md markdown mdx txt text rst adoc asciidoc org tex csv tsv json jsonl yaml yml toml ini cfg conf env xml html htm css scss sass less " +
    "js jsx mjs cjs ts tsx mts cts py pyi rb go rs java kt kts scala swift c h cc cpp cxx hpp hh cs fs php pl pm lua r jl dart " +
    "ex exs erl hrl hs ml mli clj cljs elm vue svelte sh bash zsh fish ps1 bat sql graphql gql proto tf hcl nix gradle cmake mk"
  ).split(" "),
);

/** Extension-less files that are text by convention. */
const TEXT_NAMES = new Set(["readme", "license", "makefile", "dockerfile", "changelog", "notice", "authors", "gemfile", "procfile"]);

/** Folders an import never walks into: tooling, dependencies and build output, not the owner's documents. */
export const SKIPPED_FOLDERS = new Set(["node_modules", "dist", "build", "target", "__pycache__", "venv", ".venv", "vendor", "coverage"]);

/** Why a file is not a document we index, or null when it is one. */
export function unsupportedReason(path: string): string | null {
  const ext = extname(path).slice(1).toLowerCase();
  if (ext === "pdf") return "PDF is not supported (no PDF parser is installed)";
  if (TEXT_EXTENSIONS.has(ext)) return null;
  if (!ext && TEXT_NAMES.has(basename(path).toLowerCase())) return null;
  return ext ? `not a text document (.${ext})` : "not a text document";
}

/** The largest file an import reads as a document. */
export const MAX_DOCUMENT_BYTES = 2 * 1024 * 1024;

/** A file's bytes as document text, or why they are not one (too big, binary, not UTF-8). */
export function decodeDocument(bytes: Uint8Array): { text: string } | { skip: string } {
  if (bytes.byteLength > MAX_DOCUMENT_BYTES) return { skip: `larger than ${MAX_DOCUMENT_BYTES / 1024 / 1024} MB` };
  if (bytes.subarray(0, 8192).includes(0)) return { skip: "binary file" };
  try {
    return { text: new TextDecoder("utf-8", { fatal: true }).decode(bytes) };
  } catch (err) {
    if (err instanceof TypeError) return { skip: "not UTF-8 text" };
    throw err;
  }
}

/** Whether a relative path goes through a hidden or tooling folder an import never walks into. */
export function inSkippedFolder(relPath: string): boolean {
  const parts = relPath.split("/");
  return parts.slice(0, -1).some((p) => p.startsWith(".") || SKIPPED_FOLDERS.has(p)) || (parts.at(-1) ?? "").startsWith(".");
}
