import type { AuditActor, CredentialListOut, CredentialOut } from "@coffer/protocol";
import { CredentialNotFound } from "../../domain/settings-errors.js";
import type { Clock } from "../ports.js";
import { iso } from "../presenters.js";
import type { AuditSink, CredentialMeta, CredentialStore, SecretLearner } from "./ports.js";

export interface CredentialServiceDeps {
  readonly store: CredentialStore;
  readonly audit: AuditSink;
  readonly clock: Clock;
  /** Learns a secret the moment it is set, so no later echo of it leaves the daemon. */
  readonly scrubber?: SecretLearner;
}

/** Write-only credentials: set, list refs, remove. No use case returns a secret. */
export class CredentialService {
  constructor(private readonly deps: CredentialServiceDeps) {}

  set(ref: string, secret: string, actor: AuditActor = "user"): CredentialOut {
    const now = this.deps.clock.now();
    const existed = this.deps.store.has(ref);
    const meta = this.deps.store.put(ref, secret, now);
    this.deps.scrubber?.learn(ref, secret);
    this.deps.audit(actor, existed ? "credential_updated" : "credential_created", { ref }, now);
    return toCredentialOut(meta);
  }

  list(): CredentialListOut {
    return { credentials: this.deps.store.list().map(toCredentialOut) };
  }

  remove(ref: string, actor: AuditActor = "user"): void {
    if (!this.deps.store.remove(ref)) throw new CredentialNotFound(ref);
    this.deps.scrubber?.forget(ref);
    this.deps.audit(actor, "credential_deleted", { ref }, this.deps.clock.now());
  }
}

function toCredentialOut(m: CredentialMeta): CredentialOut {
  return { ref: m.ref, created_at: iso(m.createdAt), updated_at: iso(m.updatedAt) };
}
