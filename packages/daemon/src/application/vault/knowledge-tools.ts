import { ListKnowledgeBasesInput, ReadDocumentInput, SearchKnowledgeInput } from "@coffer/protocol";
import type { BuiltinTool } from "../gateway/builtin-tools.js";
import type { Knowledge } from "./knowledge.js";
import { toolOutcome } from "../gateway/tool-outcome.js";

/** coffer__list_knowledge_bases, search_knowledge, read_document. */
export function knowledgeTools(knowledge: Pick<Knowledge, "bases" | "documents">): BuiltinTool[] {
  const listBases: BuiltinTool<typeof ListKnowledgeBasesInput> = {
    name: "list_knowledge_bases",
    description: "List the owner's knowledge bases (collections of imported documents) with their document and chunk counts.",
    input: ListKnowledgeBasesInput,
    readOnly: true,
    run: () =>
      toolOutcome(() => ({
        knowledge_bases: knowledge.bases.list().knowledge_bases.map(({ id, name, description, documents, chunks }) => ({
          id,
          name,
          description,
          documents,
          chunks,
        })),
      })),
  };
  const search: BuiltinTool<typeof SearchKnowledgeInput> = {
    name: "search_knowledge",
    description:
      "Search the owner's knowledge bases (BM25 full-text) and get the best passages with their document ids. Read a whole document with coffer__read_document.",
    input: SearchKnowledgeInput,
    readOnly: true,
    run: (args) => toolOutcome(() => knowledge.documents.search(args.query, args.kb, args.top_k)),
  };
  const read: BuiltinTool<typeof ReadDocumentInput> = {
    name: "read_document",
    description: "Read a knowledge document's text by the document_id coffer__search_knowledge gave; long documents are read in parts with offset.",
    input: ReadDocumentInput,
    readOnly: true,
    run: (args) => toolOutcome(() => knowledge.documents.read(args.document_id, args.offset, args.max_chars)),
  };
  return [listBases, search, read] as BuiltinTool[];
}
