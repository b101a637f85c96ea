import { normalize } from "node:path";
import type {
  ListMemoryOutput,
  MemoryCreate,
  MemoryFactOut,
  MemoryListOut,
  MemoryListQuery,
  MemoryPatch,
  MemoryScope,
  RecallMode,
  RecallOutput,
} from "@coffer/protocol";
import { MemoryNotFound, ScopeNeedsProject } from "../../domain/vault-errors.js";
import { OWNER_AUTHOR, type AuditSink, type Author } from "../audit-log.js";
import type { Clock, IdGenerator } from "../ports.js";
import { iso, withIsoTimes } from "../presenters.js";
import type { MatchMode, MemoryFact, MemoryStore, ScopeFilter } from "./vault-ports.js";

export interface MemoryServiceDeps {
  readonly store: MemoryStore;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  /** Every memory write (add, edit, remove) is audited with who made it. */
  readonly audit: AuditSink;
}

export interface NewFactInput {
  readonly text: string;
  readonly scope?: MemoryScope;
  readonly project?: string;
  readonly name?: string;
  readonly description?: string;
  readonly type?: string;
}

export interface RecallRequest {
  readonly query: string;
  readonly scope?: MemoryScope;
  readonly project?: string;
  readonly topK?: number;
  readonly mode?: RecallMode;
}

const NAME_LENGTH = 60;

/** Memory use cases: facts kept globally or per project (cwd), found again with BM25. */
export class MemoryService {
  constructor(private readonly deps: MemoryServiceDeps) {}

  remember(input: NewFactInput, by: Author): MemoryFact {
    const project = projectKey(input.project);
    const scope = input.scope ?? (project ? "project" : "global");
    if (scope === "project" && !project) throw new ScopeNeedsProject();
    const now = this.deps.clock.now();
    const fact: MemoryFact = {
      id: this.deps.ids(),
      scope,
      project: scope === "project" ? project : null,
      name: input.name?.trim() || defaultName(input.text),
      description: input.description?.trim() ?? "",
      type: input.type?.trim() || "fact",
      text: input.text.trim(),
      actor: by.name,
      created_at: now,
      updated_at: now,
    };
    this.deps.store.insert(fact);
    this.deps.audit(by.actor, "memory_added", { ...by.details, id: fact.id, scope: fact.scope, project: fact.project }, now);
    return fact;
  }

  recall(request: RecallRequest): RecallOutput {
    const filter = scopeFilter(request.scope, request.project);
    const topK = request.topK ?? 5;
    const hits = (mode: MatchMode) => this.deps.store.search(request.query, filter, topK, mode);
    let fallback = request.mode === "vector"; // No embeddings here: vector is answered by keyword.
    let found = request.mode === "grep" ? hits("substring") : hits("all");
    if (!found.length) {
      // Nothing held every word: facts holding any of them are better than silence.
      found = hits("any");
      fallback = true;
    }
    return {
      hits: found.map(({ fact, score }) => ({
        id: fact.id,
        text: fact.text,
        score: Math.round(score * 10_000) / 10_000,
        source: fact.scope === "global" ? "global" : `project:${fact.project}`,
        time: iso(fact.updated_at),
      })),
      fallback,
    };
  }

  update(id: string, patch: MemoryPatch, by: Author = OWNER_AUTHOR): MemoryFact {
    const { store, clock } = this.deps;
    const current = store.get(id);
    if (!current) throw new MemoryNotFound(id);
    const clean = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) as MemoryPatch;
    // A name made from the old text follows the text; a name someone chose stays.
    if (clean.text !== undefined && clean.name === undefined && current.name === defaultName(current.text)) clean.name = defaultName(clean.text);
    const now = clock.now();
    if (!store.update(id, clean, now)) throw new MemoryNotFound(id);
    this.deps.audit(by.actor, "memory_edited", { ...by.details, id, fields: Object.keys(clean) }, now);
    return store.get(id) as MemoryFact;
  }

  forget(id: string, by: Author = OWNER_AUTHOR): void {
    if (!this.deps.store.delete(id)) throw new MemoryNotFound(id);
    this.deps.audit(by.actor, "memory_removed", { ...by.details, id }, this.deps.clock.now());
  }

  get(id: string): MemoryFact {
    const fact = this.deps.store.get(id);
    if (!fact) throw new MemoryNotFound(id);
    return fact;
  }

  /** coffer__list_memory: newest first, in the asked scope. */
  listForAgent(scope: MemoryScope | undefined, project: string | undefined, limit = 50): ListMemoryOutput {
    const { total, facts } = this.deps.store.list(scopeFilter(scope, project), limit, 0);
    return {
      scope: scope ?? "all",
      total,
      facts: facts.map((f) => ({ id: f.id, name: f.name, description: f.description, type: f.type, actor: f.actor, text: f.text })),
    };
  }

  // ---- REST ----

  create(input: MemoryCreate): MemoryFactOut {
    return toFactOut(this.remember(input, OWNER_AUTHOR));
  }

  list(query: MemoryListQuery): MemoryListOut {
    const filter: ScopeFilter = query.scope
      ? scopeFilter(query.scope, query.project)
      : { global: true, project: projectKey(query.project), allProjects: !query.project };
    const { total, facts } = this.deps.store.list(filter, query.limit ?? 100, query.offset ?? 0);
    return { total, facts: facts.map(toFactOut) };
  }
}

function scopeFilter(scope: MemoryScope | undefined, rawProject: string | undefined): ScopeFilter {
  const project = projectKey(rawProject);
  if (scope === "global") return { global: true, project: null };
  if (scope === "project") {
    if (!project) throw new ScopeNeedsProject();
    return { global: false, project };
  }
  return { global: true, project };
}

/** One project, however its cwd was spelled: "/a/b/", "/a//b" and "/a/b" are the same folder. */
export function projectKey(cwd: string | undefined): string | null {
  if (!cwd?.trim()) return null;
  const n = normalize(cwd.trim());
  return n.length > 1 ? n.replace(/\/+$/, "") : n;
}

function defaultName(text: string): string {
  const line = text.trim().split("\n", 1)[0] ?? "";
  return line.length > NAME_LENGTH ? `${line.slice(0, NAME_LENGTH - 1)}…` : line;
}

export function toFactOut(f: MemoryFact): MemoryFactOut {
  return withIsoTimes(f);
}
