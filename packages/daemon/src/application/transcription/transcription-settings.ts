import { z } from "zod";
import type { AuditActor, TranscriptionSettingsPut, TranscriptionSettingsView } from "@coffer/protocol";
import { DEFAULT_TRANSCRIPTION_MODEL, TranscriptionSettingsPut as PutSchema } from "@coffer/protocol";
import type { AuditSink, CredentialResolver, CredentialStore } from "../credentials/ports.js";
import type { Clock } from "../ports.js";
import type { SettingsStore } from "../retention/ports.js";
import type { TranscriptionConnection, TranscriptionConnectionSource } from "./transcription-ports.js";

const KEY = "transcription.connection";
/** The key lives in the sealed credential store like an LLM connection's, under this ref. */
export const TRANSCRIPTION_CREDENTIAL_REF = "transcription.api_key";

/** What the settings row holds: everything but the key. */
const Stored = z.object({
  base_url: z.string(),
  model: z.string(),
  language: z.string().nullable(),
  updated_at: z.number(),
});
type Stored = z.infer<typeof Stored>;

export interface TranscriptionSettingsDeps {
  readonly store: SettingsStore;
  readonly credentials: CredentialStore & CredentialResolver;
  readonly audit: AuditSink;
  readonly clock: Clock;
}

/**
 * The owner's transcription connection: base URL, model, language in the settings table, the
 * API key sealed in the credential store (write-only). Read on every use, so a change applies
 * to the next recording without a restart.
 */
export class TranscriptionSettings implements TranscriptionConnectionSource {
  constructor(private readonly d: TranscriptionSettingsDeps) {}

  view(): TranscriptionSettingsView {
    const stored = this.stored();
    if (!stored) return { connection: null };
    return {
      connection: {
        base_url: stored.base_url,
        model: stored.model,
        language: stored.language,
        has_key: this.d.credentials.has(TRANSCRIPTION_CREDENTIAL_REF),
        updated_at: new Date(stored.updated_at).toISOString(),
      },
    };
  }

  put(input: TranscriptionSettingsPut, actor: AuditActor = "user"): TranscriptionSettingsView {
    const body = PutSchema.parse(input);
    const now = this.d.clock.now();
    if (body.api_key === null) this.d.credentials.remove(TRANSCRIPTION_CREDENTIAL_REF);
    else if (body.api_key !== undefined) this.d.credentials.put(TRANSCRIPTION_CREDENTIAL_REF, body.api_key, now);
    const next: Stored = {
      base_url: body.base_url.replace(/\/+$/, ""),
      model: body.model || DEFAULT_TRANSCRIPTION_MODEL,
      language: body.language ? body.language.toLowerCase() : null,
      updated_at: now,
    };
    this.d.store.set(KEY, next, now);
    const view = this.view();
    // The audit row names the endpoint (the owner's choice of where audio goes), never the key.
    this.d.audit(actor, "transcription_settings_changed", { base_url: next.base_url, model: next.model, has_key: view.connection?.has_key ?? false }, now);
    return view;
  }

  remove(actor: AuditActor = "user"): void {
    const now = this.d.clock.now();
    this.d.store.set(KEY, null, now);
    this.d.credentials.remove(TRANSCRIPTION_CREDENTIAL_REF);
    this.d.audit(actor, "transcription_settings_changed", { removed: true }, now);
  }

  async current(): Promise<TranscriptionConnection | null> {
    const stored = this.stored();
    if (!stored) return null;
    const apiKey = this.d.credentials.has(TRANSCRIPTION_CREDENTIAL_REF) ? this.d.credentials.resolve(TRANSCRIPTION_CREDENTIAL_REF) : null;
    return { baseUrl: stored.base_url, model: stored.model, apiKey, language: stored.language };
  }

  private stored(): Stored | null {
    const parsed = Stored.safeParse(this.d.store.get(KEY));
    return parsed.success ? parsed.data : null;
  }
}
