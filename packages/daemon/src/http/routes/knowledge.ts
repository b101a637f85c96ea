import { ROUTES } from "@coffer/protocol";
import type { RouteBinder } from "../bind-route.js";
import type { HttpDeps } from "../deps.js";
import { decodeUploads } from "./uploads.js";

// Order matters: the literal paths (search, imports, documents) are bound before /knowledge/{kb}.
export function knowledgeRoutes(bind: RouteBinder, { vault }: HttpDeps): void {
  const { knowledge } = vault;
  bind
    .route(ROUTES.listKnowledgeBases, () => knowledge.bases.list())
    .route(ROUTES.createKnowledgeBase, ({ body }) => knowledge.bases.create(body))
    .route(ROUTES.searchKnowledge, ({ query }) => knowledge.documents.search(query.q, query.kb, query.top_k))
    .route(ROUTES.getImportJob, ({ params }) => knowledge.imports.job(params.job))
    .route(ROUTES.getDocument, ({ params }) => knowledge.documents.get(params.doc))
    .route(ROUTES.deleteDocument, ({ params }) => knowledge.documents.delete(params.doc))
    .route(ROUTES.getKnowledgeBase, ({ params }) => knowledge.bases.get(params.kb))
    .route(ROUTES.updateKnowledgeBase, ({ params, body }) => knowledge.bases.patch(params.kb, body))
    .route(ROUTES.deleteKnowledgeBase, ({ params }) => knowledge.bases.delete(params.kb))
    .route(ROUTES.listDocuments, ({ params }) => knowledge.documents.list(params.kb))
    .route(ROUTES.startImport, ({ params, body }) => knowledge.imports.start(params.kb, body.path))
    .route(ROUTES.uploadKnowledge, ({ params, body }) => knowledge.imports.upload(params.kb, body.label ?? "upload", decodeUploads(body.files)));
}
