import { ROUTES } from "@coffer/protocol";
import type { RouteBinder } from "../bind-route.js";
import type { HttpDeps } from "../deps.js";
import { decodeUploads } from "./uploads.js";

// Order matters: the literal paths (search, imports, documents) are bound before /knowledge/{kb}.
export function knowledgeRoutes(bind: RouteBinder, { vault }: HttpDeps): void {
  const { knowledge } = vault;
  bind
    .route(ROUTES.listKnowledgeBases, () => knowledge.list())
    .route(ROUTES.createKnowledgeBase, ({ body }) => knowledge.create(body))
    .route(ROUTES.searchKnowledge, ({ query }) => knowledge.search(query.q, query.kb, query.top_k))
    .route(ROUTES.getImportJob, ({ params }) => knowledge.importJob(params.job))
    .route(ROUTES.getDocument, ({ params }) => knowledge.document(params.doc))
    .route(ROUTES.deleteDocument, ({ params }) => knowledge.deleteDocument(params.doc))
    .route(ROUTES.getKnowledgeBase, ({ params }) => knowledge.get(params.kb))
    .route(ROUTES.updateKnowledgeBase, ({ params, body }) => knowledge.patch(params.kb, body))
    .route(ROUTES.deleteKnowledgeBase, ({ params }) => knowledge.delete(params.kb))
    .route(ROUTES.listDocuments, ({ params }) => knowledge.documents(params.kb))
    .route(ROUTES.startImport, ({ params, body }) => knowledge.startImport(params.kb, body.path))
    .route(ROUTES.uploadKnowledge, ({ params, body }) => knowledge.startUpload(params.kb, body.label ?? "upload", decodeUploads(body.files)));
}
