import type { RouteSpec } from "../wire/route-spec.js";
import {
  DocumentDetailOut,
  DocumentListOut,
  ImportJobOut,
  KnowledgeBaseCreate,
  KnowledgeBaseListOut,
  KnowledgeBaseOut,
  KnowledgeBasePatch,
  KnowledgeImportIn,
  KnowledgeSearchQuery,
  SearchKnowledgeOutput,
} from "./knowledge.js";
import { MemoryCreate, MemoryFactOut, MemoryListOut, MemoryListQuery, MemoryPatch, MemorySearchQuery, RecallOutput } from "./memory.js";
import { SkillCreate, SkillDetailOut, SkillImportIn, SkillImportOut, SkillListOut } from "./skills.js";
import { KnowledgeUploadIn, SkillUploadIn, UPLOAD_MAX_BODY_BYTES } from "./uploads.js";

/** The vault's contents: skills, memory and knowledge (spread into ROUTES). */
export const VAULT_ROUTES = {
  listSkills: { method: "get", path: "/skills", summary: "Skill folders; malformed ones listed with their problem", responses: { 200: SkillListOut } },
  importSkills: {
    method: "post",
    path: "/skills/import",
    summary: "Copy a skill folder (or a folder of them) into the vault",
    body: SkillImportIn,
    responses: { 200: SkillImportOut },
  },
  uploadSkills: {
    method: "post",
    path: "/skills/uploads",
    summary: "Add skill folders uploaded from the page (same checks as an import by path)",
    body: SkillUploadIn,
    maxBodyBytes: UPLOAD_MAX_BODY_BYTES,
    responses: { 200: SkillImportOut },
  },
  createSkill: {
    method: "post",
    path: "/skills",
    summary: "Write a new skill: its SKILL.md from a name, a description and a markdown body",
    body: SkillCreate,
    responses: { 201: SkillDetailOut },
  },
  getSkill: { method: "get", path: "/skills/{name}", summary: "A skill and its SKILL.md (by name or folder)", responses: { 200: SkillDetailOut } },
  deleteSkill: { method: "delete", path: "/skills/{name}", summary: "Remove a skill folder", responses: { 204: null } },
  listMemory: { method: "get", path: "/memory", summary: "Memory facts, newest first", query: MemoryListQuery, responses: { 200: MemoryListOut } },
  createMemory: { method: "post", path: "/memory", summary: "Remember a fact", body: MemoryCreate, responses: { 201: MemoryFactOut } },
  searchMemory: { method: "get", path: "/memory/search", summary: "Recall facts (BM25)", query: MemorySearchQuery, responses: { 200: RecallOutput } },
  getMemory: { method: "get", path: "/memory/{id}", summary: "A memory fact", responses: { 200: MemoryFactOut } },
  updateMemory: { method: "patch", path: "/memory/{id}", summary: "Change a memory fact", body: MemoryPatch, responses: { 200: MemoryFactOut } },
  deleteMemory: { method: "delete", path: "/memory/{id}", summary: "Forget a memory fact", responses: { 204: null } },
  listKnowledgeBases: { method: "get", path: "/knowledge", summary: "Knowledge bases with document and chunk counts", responses: { 200: KnowledgeBaseListOut } },
  createKnowledgeBase: { method: "post", path: "/knowledge", summary: "Create a knowledge base", body: KnowledgeBaseCreate, responses: { 201: KnowledgeBaseOut } },
  searchKnowledge: {
    method: "get",
    path: "/knowledge/search",
    summary: "Search knowledge (BM25 with snippets)",
    query: KnowledgeSearchQuery,
    responses: { 200: SearchKnowledgeOutput },
  },
  getImportJob: { method: "get", path: "/knowledge/imports/{job}", summary: "An import's progress (poll until done or failed)", responses: { 200: ImportJobOut } },
  getDocument: { method: "get", path: "/knowledge/documents/{doc}", summary: "A document and its text", responses: { 200: DocumentDetailOut } },
  deleteDocument: { method: "delete", path: "/knowledge/documents/{doc}", summary: "Remove a document and its chunks", responses: { 204: null } },
  getKnowledgeBase: { method: "get", path: "/knowledge/{kb}", summary: "A knowledge base (by id or name)", responses: { 200: KnowledgeBaseOut } },
  updateKnowledgeBase: { method: "patch", path: "/knowledge/{kb}", summary: "Rename or describe a knowledge base", body: KnowledgeBasePatch, responses: { 200: KnowledgeBaseOut } },
  deleteKnowledgeBase: { method: "delete", path: "/knowledge/{kb}", summary: "Delete a knowledge base with its documents", responses: { 204: null } },
  listDocuments: { method: "get", path: "/knowledge/{kb}/documents", summary: "A knowledge base's documents", responses: { 200: DocumentListOut } },
  startImport: {
    method: "post",
    path: "/knowledge/{kb}/imports",
    summary: "Import a file or folder (runs in the background; poll the returned import)",
    body: KnowledgeImportIn,
    responses: { 202: ImportJobOut },
  },
  uploadKnowledge: {
    method: "post",
    path: "/knowledge/{kb}/uploads",
    summary: "Import files uploaded from the page (runs in the background like an import by path; poll the returned import)",
    body: KnowledgeUploadIn,
    maxBodyBytes: UPLOAD_MAX_BODY_BYTES,
    responses: { 202: ImportJobOut },
  },
} as const satisfies Record<string, RouteSpec>;
