import { DEFAULT_TRANSCRIPTION_MODEL, type TranscriptionSettingsOut, type TranscriptionSettingsPut } from "@coffer/protocol";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useSettingsApi } from "../../api/page-apis.js";
import { keys } from "../../api/queries.js";
import { ConfirmAction } from "../../ui/confirm-action.js";
import { Icon } from "../../ui/icons.js";
import { Field, fieldProps, InlineError, Section, SkeletonRows, StatusDot } from "../../ui/page-kit.js";
import { useToast } from "../../ui/toasts.js";
import { SecretInput } from "../credentials/secret-input.js";
import { VoiceTestResult } from "./voice-test-result.js";
import "./voice.css";

const voiceKey = ["settings", "transcription"] as const;

/**
 * Settings → Connections → Voice transcription: the one connection the page's microphone and
 * Telegram voice notes go through (an OpenAI-compatible /v1/audio/transcriptions). Off until set.
 */
export function VoiceSection() {
  const settings = useSettingsApi();
  const view = useQuery({ queryKey: voiceKey, queryFn: settings.transcription });
  const connection = view.data?.connection ?? null;
  return (
    <Section
      title="Voice transcription"
      actions={view.data && <StatusDot tone={connection ? "success" : "neutral"}>{connection ? "On" : "Off"}</StatusDot>}
    >
      <p className="page-lead voice-lead">
        Turns the page's microphone and Telegram voice notes into text. The audio goes to the server below: a local
        whisper.cpp or faster-whisper server keeps it on this machine; a cloud service (OpenAI, …) means it leaves it.
      </p>
      <InlineError error={view.error} onRetry={() => void view.refetch()} />
      {view.isPending && <SkeletonRows rows={2} label="Loading voice settings" />}
      {/* A new form per saved version: what the daemon answered is the starting point. */}
      {view.data && <VoiceForm key={connection?.updated_at ?? "off"} connection={connection} />}
    </Section>
  );
}

type KeyPlan = "keep" | "replace" | "remove";

function VoiceForm({ connection: c }: { connection: TranscriptionSettingsOut | null }) {
  const settings = useSettingsApi();
  const client = useQueryClient();
  const toast = useToast();
  const [baseUrl, setBaseUrl] = useState(c?.base_url ?? "");
  const [model, setModel] = useState(c?.model ?? "");
  const [language, setLanguage] = useState(c?.language ?? "");
  const [apiKey, setApiKey] = useState("");
  const [keyPlan, setKeyPlan] = useState<KeyPlan>(c?.has_key ? "keep" : "replace");
  const body: TranscriptionSettingsPut = {
    base_url: baseUrl.trim(),
    model: model.trim() || DEFAULT_TRANSCRIPTION_MODEL,
    language: language.trim() || null,
    // Omitted keeps the stored key; null removes it; a typed one replaces it.
    ...(keyPlan === "remove" ? { api_key: null } : apiKey ? { api_key: apiKey } : {}),
  };
  const dirty =
    !c || body.base_url !== c.base_url || body.model !== c.model || body.language !== c.language || keyPlan === "remove" || Boolean(apiKey);
  const changed = (view: { connection: TranscriptionSettingsOut | null }) => {
    client.setQueryData(voiceKey, view);
    // The composer's microphone follows at once (on or off).
    void client.invalidateQueries({ queryKey: keys.transcriptionStatus });
  };
  const save = useMutation({
    mutationFn: () => settings.setTranscription(body),
    onSuccess: (view) => (changed(view), toast({ text: "Voice transcription saved" })),
  });
  const test = useMutation({ mutationFn: settings.testTranscription });
  const remove = useMutation({
    mutationFn: settings.removeTranscription,
    onSuccess: () => (changed({ connection: null }), toast({ text: "Voice transcription removed; voice input is off" })),
    onError: (err: Error) => toast({ text: err.message, tone: "error" }),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (baseUrl.trim() && dirty) save.mutate();
  };
  return (
    <form className="card form" onSubmit={submit} aria-label="Voice transcription connection">
      <div className="form-row">
        <Field label="Base URL" hint="Without /v1/audio/transcriptions, e.g. http://127.0.0.1:8080 for a local server or https://api.openai.com.">
          {(ids) => (
            <input
              {...fieldProps(ids)}
              className="input mono"
              type="url"
              required
              value={baseUrl}
              placeholder="http://127.0.0.1:8080"
              spellCheck={false}
              onChange={(e) => (setBaseUrl(e.target.value), test.reset())}
            />
          )}
        </Field>
        <Field label="Model" hint="The name the server knows its model by.">
          {(ids) => (
            <input {...fieldProps(ids)} className="input mono" value={model} placeholder={DEFAULT_TRANSCRIPTION_MODEL} spellCheck={false} onChange={(e) => setModel(e.target.value)} />
          )}
        </Field>
      </div>
      <div className="form-row">
        <Field
          label="API key"
          hint={
            keyPlan === "keep"
              ? "Stored encrypted; never shown again."
              : keyPlan === "remove"
                ? "The key is removed when you save."
                : c?.has_key
                  ? "Replaces the saved key when you save."
                  : "Optional: a local server needs none. Stored encrypted, never shown again."
          }
        >
          {(ids) =>
            keyPlan === "replace" ? (
              <span className="voice-key">
                <SecretInput ids={ids} value={apiKey} onChange={setApiKey} onEnter={() => baseUrl.trim() && save.mutate()} placeholder={c?.has_key ? "New key" : "sk-…"} />
                {c?.has_key && (
                  <button type="button" className="btn btn-sm" onClick={() => (setApiKey(""), setKeyPlan("keep"))}>
                    Keep saved key
                  </button>
                )}
              </span>
            ) : (
              <span className="voice-key" id={ids.id} aria-describedby={ids.hintId}>
                {keyPlan === "keep" ? <span className="chip chip-success">Saved</span> : <span className="chip chip-danger">Will be removed</span>}
                {keyPlan === "keep" ? (
                  <>
                    <button type="button" className="btn btn-sm" onClick={() => setKeyPlan("replace")}>
                      Replace
                    </button>
                    <button type="button" className="btn btn-sm btn-ghost" onClick={() => setKeyPlan("remove")}>
                      Remove key
                    </button>
                  </>
                ) : (
                  <button type="button" className="btn btn-sm" onClick={() => setKeyPlan("keep")}>
                    Undo
                  </button>
                )}
              </span>
            )
          }
        </Field>
        <Field label="Language" hint="Optional: a two-letter code (en, fr, …) helps the server; empty lets it detect.">
          {(ids) => (
            <input {...fieldProps(ids)} className="input mono" value={language} placeholder="auto" maxLength={3} spellCheck={false} onChange={(e) => setLanguage(e.target.value)} />
          )}
        </Field>
      </div>
      <InlineError error={save.error} />
      <VoiceTestResult test={test} />
      <div className="form-actions">
        <button type="submit" className="btn btn-primary" disabled={!baseUrl.trim() || !dirty || save.isPending}>
          {save.isPending ? "Saving…" : c ? "Save" : "Save and turn on"}
        </button>
        <button
          type="button"
          className="btn"
          disabled={!c || dirty || test.isPending}
          title={!c ? "Save a connection first" : dirty ? "Save first: Test checks the saved connection" : "Send a short test tone through the saved connection"}
          onClick={() => test.mutate()}
        >
          <Icon name="play" size={14} /> Test
        </button>
        {c && (
          <ConfirmAction
            label="Remove"
            ariaLabel="Remove voice transcription"
            title="Remove voice transcription?"
            body="Voice input turns off on the page and in Telegram, and the stored key is deleted."
            confirmLabel="Remove"
            onConfirm={() => remove.mutate()}
          />
        )}
      </div>
    </form>
  );
}
