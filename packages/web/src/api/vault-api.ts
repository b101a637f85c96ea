import {
  DocumentDetailOut,
  DocumentListOut,
  ImportJobOut,
  KnowledgeBaseListOut,
  KnowledgeBaseOut,
  McpInvocationListOut,
  McpServerListOut,
  McpServerOut,
  MemoryFactOut,
  MemoryListOut,
  RecallOutput,
  SearchKnowledgeOutput,
  SkillDetailOut,
  SkillImportOut,
  SkillListOut,
  type KnowledgeBaseCreate,
  type KnowledgeBasePatch,
  type McpServerCreate,
  type McpServerPatch,
  type MemoryCreate,
  type MemoryPatch,
  type MemoryScope,
} from "@coffer/protocol";
import type { CofferApi } from "./client.js";

/** Query strings without the undefined and empty values. */
export function qs(params: Record<string, string | number | undefined>): string {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== "") p.set(k, String(v));
  const s = p.toString();
  return s ? `?${s}` : "";
}

const enc = encodeURIComponent;

export interface MemoryFilter {
  scope?: MemoryScope;
  project?: string;
}

/** The vault's REST routes (skills, memory, knowledge, MCP), on CofferApi's transport and error envelope. */
export class VaultApi {
  constructor(private readonly api: CofferApi) {}

  skills = () => this.api.call("GET", "/skills", SkillListOut);
  skill = (name: string) => this.api.call("GET", `/skills/${enc(name)}`, SkillDetailOut);
  importSkills = (path: string, overwrite: boolean) => this.api.call("POST", "/skills/import", SkillImportOut, { path, overwrite });
  deleteSkill = (name: string) => this.api.call("DELETE", `/skills/${enc(name)}`, null);

  memory = (f: MemoryFilter & { limit: number; offset: number }) => this.api.call("GET", `/memory${qs({ ...f })}`, MemoryListOut);
  searchMemory = (q: string, f: MemoryFilter, topK = 20) =>
    this.api.call("GET", `/memory/search${qs({ q, ...f, top_k: topK })}`, RecallOutput);
  fact = (id: string) => this.api.call("GET", `/memory/${enc(id)}`, MemoryFactOut);
  remember = (body: MemoryCreate) => this.api.call("POST", "/memory", MemoryFactOut, body);
  updateFact = (id: string, body: MemoryPatch) => this.api.call("PATCH", `/memory/${enc(id)}`, MemoryFactOut, body);
  forget = (id: string) => this.api.call("DELETE", `/memory/${enc(id)}`, null);

  knowledgeBases = () => this.api.call("GET", "/knowledge", KnowledgeBaseListOut);
  createKnowledgeBase = (body: KnowledgeBaseCreate) => this.api.call("POST", "/knowledge", KnowledgeBaseOut, body);
  updateKnowledgeBase = (kb: string, body: KnowledgeBasePatch) => this.api.call("PATCH", `/knowledge/${enc(kb)}`, KnowledgeBaseOut, body);
  deleteKnowledgeBase = (kb: string) => this.api.call("DELETE", `/knowledge/${enc(kb)}`, null);
  documents = (kb: string) => this.api.call("GET", `/knowledge/${enc(kb)}/documents`, DocumentListOut);
  document = (doc: string) => this.api.call("GET", `/knowledge/documents/${enc(doc)}`, DocumentDetailOut);
  deleteDocument = (doc: string) => this.api.call("DELETE", `/knowledge/documents/${enc(doc)}`, null);
  searchKnowledge = (q: string, kb?: string, topK = 10) =>
    this.api.call("GET", `/knowledge/search${qs({ q, kb, top_k: topK })}`, SearchKnowledgeOutput);
  importKnowledge = (kb: string, path: string) => this.api.call("POST", `/knowledge/${enc(kb)}/imports`, ImportJobOut, { path });
  importJob = (job: string) => this.api.call("GET", `/knowledge/imports/${enc(job)}`, ImportJobOut);

  mcpServers = () => this.api.call("GET", "/mcp/servers", McpServerListOut);
  createMcpServer = (body: McpServerCreate) => this.api.call("POST", "/mcp/servers", McpServerOut, body);
  updateMcpServer = (name: string, body: McpServerPatch) => this.api.call("PATCH", `/mcp/servers/${enc(name)}`, McpServerOut, body);
  deleteMcpServer = (name: string) => this.api.call("DELETE", `/mcp/servers/${enc(name)}`, null);
  setMcpServerEnabled = (name: string, enabled: boolean) =>
    this.api.call("POST", `/mcp/servers/${enc(name)}/${enabled ? "enable" : "disable"}`, McpServerOut, {});
  invocations = (before: number | null, limit = 100) =>
    this.api.call("GET", `/mcp/invocations${qs({ limit, before: before ?? undefined })}`, McpInvocationListOut);
}
