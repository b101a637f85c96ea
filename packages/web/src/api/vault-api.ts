import {
  CHAT_AREA_ROUTES,
  VAULT_ROUTES,
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

  skills = () => this.api.call(VAULT_ROUTES.listSkills);
  skill = (name: string) => this.api.call(VAULT_ROUTES.getSkill, { params: { name } });
  importSkills = (path: string, overwrite: boolean) => this.api.call(VAULT_ROUTES.importSkills, { body: { path, overwrite } });
  uploadSkills = (files: UploadFile[], overwrite: boolean) => this.api.call(VAULT_ROUTES.uploadSkills, { body: { files, overwrite } });
  createSkill = (body: SkillCreate) => this.api.call(VAULT_ROUTES.createSkill, { body });
  deleteSkill = (name: string) => this.api.call(VAULT_ROUTES.deleteSkill, { params: { name } });

  memory = (f: MemoryFilter & { limit: number; offset: number }) => this.api.call(VAULT_ROUTES.listMemory, { query: f });
  searchMemory = (q: string, f: MemoryFilter, topK = 20) => this.api.call(VAULT_ROUTES.searchMemory, { query: { q, ...f, top_k: topK } });
  fact = (id: string) => this.api.call(VAULT_ROUTES.getMemory, { params: { id } });
  remember = (body: MemoryCreate) => this.api.call(VAULT_ROUTES.createMemory, { body });
  updateFact = (id: string, body: MemoryPatch) => this.api.call(VAULT_ROUTES.updateMemory, { params: { id }, body });
  forget = (id: string) => this.api.call(VAULT_ROUTES.deleteMemory, { params: { id } });

  knowledgeBases = () => this.api.call(VAULT_ROUTES.listKnowledgeBases);
  createKnowledgeBase = (body: KnowledgeBaseCreate) => this.api.call(VAULT_ROUTES.createKnowledgeBase, { body });
  updateKnowledgeBase = (kb: string, body: KnowledgeBasePatch) => this.api.call(VAULT_ROUTES.updateKnowledgeBase, { params: { kb }, body });
  deleteKnowledgeBase = (kb: string) => this.api.call(VAULT_ROUTES.deleteKnowledgeBase, { params: { kb } });
  documents = (kb: string) => this.api.call(VAULT_ROUTES.listDocuments, { params: { kb } });
  document = (doc: string) => this.api.call(VAULT_ROUTES.getDocument, { params: { doc } });
  deleteDocument = (doc: string) => this.api.call(VAULT_ROUTES.deleteDocument, { params: { doc } });
  searchKnowledge = (q: string, kb?: string, topK = 10) => this.api.call(VAULT_ROUTES.searchKnowledge, { query: { q, kb, top_k: topK } });
  importKnowledge = (kb: string, path: string) => this.api.call(VAULT_ROUTES.startImport, { params: { kb }, body: { path } });
  uploadKnowledge = (kb: string, label: string, files: UploadFile[]) => this.api.call(VAULT_ROUTES.uploadKnowledge, { params: { kb }, body: { label, files } });
  importJob = (job: string) => this.api.call(VAULT_ROUTES.getImportJob, { params: { job } });

  mcpServers = () => this.api.call(CHAT_AREA_ROUTES.listMcpServers);
  createMcpServer = (body: McpServerCreate) => this.api.call(CHAT_AREA_ROUTES.createMcpServer, { body });
  updateMcpServer = (name: string, body: McpServerPatch) => this.api.call(CHAT_AREA_ROUTES.updateMcpServer, { params: { name }, body });
  deleteMcpServer = (name: string) => this.api.call(CHAT_AREA_ROUTES.deleteMcpServer, { params: { name } });
  setMcpServerEnabled = (name: string, enabled: boolean) =>
    this.api.call(enabled ? CHAT_AREA_ROUTES.enableMcpServer : CHAT_AREA_ROUTES.disableMcpServer, { params: { name } });
  invocations = (before: number | null, limit = 100) => this.api.call(CHAT_AREA_ROUTES.listMcpInvocations, { query: { limit, before } });
}
