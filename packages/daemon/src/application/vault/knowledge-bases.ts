import type { KnowledgeBaseCreate, KnowledgeBaseListOut, KnowledgeBaseOut, KnowledgeBasePatch } from "@coffer/protocol";
import { KnowledgeBaseExists, KnowledgeBaseNotFound } from "../../domain/vault-errors.js";
import type { AuditSink } from "../audit-log.js";
import type { Clock, IdGenerator } from "../ports.js";
import { withIsoTimes } from "../presenters.js";
import type { KnowledgeBase, KnowledgeStore } from "./vault-ports.js";

export interface KnowledgeBasesDeps {
  readonly store: KnowledgeStore;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  /** Bases created, changed and removed are audited. */
  readonly audit: AuditSink;
}

/** The owner's knowledge bases themselves: named collections the documents are imported into. */
export class KnowledgeBases {
  constructor(private readonly deps: KnowledgeBasesDeps) {}

  list(): KnowledgeBaseListOut {
    return { knowledge_bases: this.deps.store.listBases().map(toBaseOut) };
  }

  create(input: KnowledgeBaseCreate): KnowledgeBaseOut {
    const { store, clock, ids } = this.deps;
    if (store.nameTaken(input.name)) throw new KnowledgeBaseExists(input.name);
    const id = ids();
    const now = clock.now();
    store.createBase({ id, name: input.name, description: input.description ?? "", now });
    this.deps.audit("user", "knowledge_base_created", { id, name: input.name }, now);
    return toBaseOut(findBase(store, id));
  }

  get(ref: string): KnowledgeBaseOut {
    return toBaseOut(findBase(this.deps.store, ref));
  }

  patch(ref: string, patch: KnowledgeBasePatch): KnowledgeBaseOut {
    const { store, clock } = this.deps;
    const base = findBase(store, ref);
    if (patch.name !== undefined && store.nameTaken(patch.name, base.id)) throw new KnowledgeBaseExists(patch.name);
    const now = clock.now();
    store.patchBase(base.id, patch, now);
    this.deps.audit("user", "knowledge_base_changed", { id: base.id, name: patch.name ?? base.name, fields: Object.keys(patch) }, now);
    return toBaseOut(findBase(store, base.id));
  }

  delete(ref: string): void {
    const base = findBase(this.deps.store, ref);
    this.deps.store.deleteBase(base.id);
    this.deps.audit("user", "knowledge_base_removed", { id: base.id, name: base.name }, this.deps.clock.now());
  }
}

/** A base by id or name, or KnowledgeBaseNotFound: documents, search and imports name their base the same way. */
export function findBase(store: Pick<KnowledgeStore, "findBase">, ref: string): KnowledgeBase {
  const base = store.findBase(ref);
  if (!base) throw new KnowledgeBaseNotFound(ref);
  return base;
}

function toBaseOut(b: KnowledgeBase): KnowledgeBaseOut {
  return withIsoTimes(b);
}
