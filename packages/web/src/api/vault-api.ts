import {
  ROUTES,
  type KnowledgeBaseCreate,
  type KnowledgeBasePatch,
  type McpServerCreate,
  type McpServerPatch,
  type MemoryCreate,
  type MemoryPatch,
  type MemoryScope,
  type SkillCreate,
  type UploadFile,
} from "@coffer/protocol";
import type { CofferApi } from "./client.js";

export interface MemoryFilter {
  scope?: MemoryScope;
  project?: string;
}

/** The vault's REST routes (skills, memory, knowledge, MCP), on CofferApi's transport and error envelope. */
export class VaultApi {
  constructor(private readonly api: CofferApi) {}

  skills = () => this.api.call(ROUTES.listSkills);
  skill = (name: string) => this.api.call(ROUTES.getSkill, { params: { name } });
  importSkills = (path: string, overwrite: boolean) => this.api.call(ROUTES.importSkills, { body: { path, overwrite } });
  uploadSkills = (files: UploadFile[], overwrite: boolean) => this.api.call(ROUTES.uploadSkills, { body: { files, overwrite } });
  createSkill = (body: SkillCreate) => this.api.call(ROUTES.createSkill, { body });
  deleteSkill = (name: string) => this.api.call(ROUTES.deleteSkill, { params: { name } });

  memory = (f: MemoryFilter & { limit: number; offset: number }) => this.api.call(ROUTES.listMemory, { query: f });
  searchMemory = (q: string, f: MemoryFilter, topK = 20) => this.api.call(ROUTES.searchMemory, { query: { q, ...f, top_k: topK } });
  fact = (id: string) => this.api.call(ROUTES.getMemory, { params: { id } });
  remember = (body: MemoryCreate) => this.api.call(ROUTES.createMemory, { body });
  updateFact = (id: string, body: MemoryPatch) => this.api.call(ROUTES.updateMemory, { params: { id }, body });
  forget = (id: string) => this.api.call(ROUTES.deleteMemory, { params: { id } });

  knowledgeBases = () => this.api.call(ROUTES.listKnowledgeBases);
  createKnowledgeBase = (body: KnowledgeBaseCreate) => this.api.call(ROUTES.createKnowledgeBase, { body });
  updateKnowledgeBase = (kb: string, body: KnowledgeBasePatch) => this.api.call(ROUTES.updateKnowledgeBase, { params: { kb }, body });
  deleteKnowledgeBase = (kb: string) => this.api.call(ROUTES.deleteKnowledgeBase, { params: { kb } });
  documents = (kb: string) => this.api.call(ROUTES.listDocuments, { params: { kb } });
  document = (doc: string) => this.api.call(ROUTES.getDocument, { params: { doc } });
  deleteDocument = (doc: string) => this.api.call(ROUTES.deleteDocument, { params: { doc } });
  searchKnowledge = (q: string, kb?: string, topK = 10) => this.api.call(ROUTES.searchKnowledge, { query: { q, kb, top_k: topK } });
  importKnowledge = (kb: string, path: string) => this.api.call(ROUTES.startImport, { params: { kb }, body: { path } });
  uploadKnowledge = (kb: string, label: string, files: UploadFile[]) => this.api.call(ROUTES.uploadKnowledge, { params: { kb }, body: { label, files } });
  importJob = (job: string) => this.api.call(ROUTES.getImportJob, { params: { job } });

  mcpServers = () => this.api.call(ROUTES.listMcpServers);
  createMcpServer = (body: McpServerCreate) => this.api.call(ROUTES.createMcpServer, { body });
  updateMcpServer = (name: string, body: McpServerPatch) => this.api.call(ROUTES.updateMcpServer, { params: { name }, body });
  deleteMcpServer = (name: string) => this.api.call(ROUTES.deleteMcpServer, { params: { name } });
  setMcpServerEnabled = (name: string, enabled: boolean) =>
    this.api.call(enabled ? ROUTES.enableMcpServer : ROUTES.disableMcpServer, { params: { name } });
  invocations = (before: number | null, limit = 100) => this.api.call(ROUTES.listMcpInvocations, { query: { limit, before } });
}
