import type { AuditActor, ConnectionCreate, ConnectionListOut, ConnectionOut, ConnectionPatch, WireListOut } from "@coffer/protocol";
import { ConnectionInvalid, ConnectionNameTaken, ConnectionNotFound, UnknownProviderKind } from "../../domain/settings-errors.js";
import type { AuditSink, CredentialStore } from "../credentials/ports.js";
import type { Clock, IdGenerator } from "../ports.js";
import { withIsoTimes } from "../presenters.js";
import type { Connection, ConnectionStore, LlmProviders } from "./ports.js";

export interface ConnectionServiceDeps {
  readonly store: ConnectionStore;
  readonly providers: LlmProviders;
  readonly credentials: Pick<CredentialStore, "has">;
  readonly audit: AuditSink;
  readonly clock: Clock;
  readonly ids: IdGenerator;
}

/** LLM connections: CRUD, and the one internal default that `coffer__ask` uses. */
export class ConnectionService {
  constructor(private readonly deps: ConnectionServiceDeps) {}

  wireList(): WireListOut {
    return {
      wires: this.deps.providers.providerKinds().map((w) => ({
        wire: w.kind,
        display_name: w.displayName,
        needs_credential: w.needsCredential,
        default_base_url: w.defaultBaseUrl,
      })),
    };
  }

  list(): ConnectionListOut {
    return { connections: this.deps.store.list().map((c) => this.out(c)) };
  }

  get(id: string): ConnectionOut {
    return this.out(this.require(id));
  }

  /** The connection Coffer's internal engine runs on, if the owner chose one. */
  internalDefault(): Connection | null {
    return this.deps.store.internalDefault();
  }

  create(input: ConnectionCreate, actor: AuditActor = "user"): ConnectionOut {
    const { store, clock, ids } = this.deps;
    const now = clock.now();
    const c: Connection = {
      id: ids(),
      name: input.name,
      wire: input.wire,
      base_url: input.base_url ?? null,
      model: input.model,
      credential_ref: input.credential_ref ?? null,
      internal_default: false,
      created_at: now,
      updated_at: now,
    };
    this.validate(c);
    store.transaction(() => {
      store.insert(c);
      if (input.internal_default) store.setInternalDefault(c.id, now);
      this.deps.audit(actor, "llm_connection_created", { id: c.id, name: c.name, wire: c.wire }, now);
    });
    return this.get(c.id);
  }

  update(id: string, patch: ConnectionPatch, actor: AuditActor = "user"): ConnectionOut {
    const { store, clock } = this.deps;
    const current = this.require(id);
    const now = clock.now();
    const next: Connection = {
      ...current,
      name: patch.name ?? current.name,
      wire: patch.wire ?? current.wire,
      base_url: patch.base_url === undefined ? current.base_url : patch.base_url,
      model: patch.model ?? current.model,
      credential_ref: patch.credential_ref === undefined ? current.credential_ref : patch.credential_ref,
      updated_at: now,
    };
    this.validate(next);
    store.transaction(() => {
      store.update(next);
      if (patch.internal_default === true) store.setInternalDefault(id, now);
      if (patch.internal_default === false && current.internal_default) store.setInternalDefault(null, now);
      this.deps.audit(actor, "llm_connection_updated", { id, name: next.name, wire: next.wire }, now);
    });
    return this.get(id);
  }

  remove(id: string, actor: AuditActor = "user"): void {
    const c = this.require(id);
    const now = this.deps.clock.now();
    this.deps.store.transaction(() => {
      this.deps.store.delete(id);
      this.deps.audit(actor, "llm_connection_deleted", { id, name: c.name }, now);
    });
  }

  makeInternalDefault(id: string, actor: AuditActor = "user"): ConnectionOut {
    const c = this.require(id);
    const now = this.deps.clock.now();
    this.deps.store.transaction(() => {
      this.deps.store.setInternalDefault(id, now);
      this.deps.audit(actor, "llm_connection_internal_default_set", { id, name: c.name }, now);
    });
    return this.get(id);
  }

  private validate(c: Connection): void {
    const kinds = this.deps.providers.providerKinds();
    const provider = kinds.find((k) => k.kind === c.wire);
    if (!provider) throw new UnknownProviderKind(c.wire, kinds.map((k) => k.kind));
    if (provider.needsCredential && !c.credential_ref) {
      throw new ConnectionInvalid(`the ${c.wire} provider needs a credential: give a credential_ref`, "credential_required");
    }
    const clash = this.deps.store.findByName(c.name);
    if (clash && clash.id !== c.id) throw new ConnectionNameTaken(c.name);
  }

  private require(id: string): Connection {
    const c = this.deps.store.get(id);
    if (!c) throw new ConnectionNotFound(id);
    return c;
  }

  private out(c: Connection): ConnectionOut {
    return { ...withIsoTimes(c), credential_set: c.credential_ref ? this.deps.credentials.has(c.credential_ref) : false };
  }
}
