import type { TranscriptionTestOut } from "@coffer/protocol";
import type { UseMutationResult } from "@tanstack/react-query";
import { Icon } from "../../ui/icons.js";
import { InlineError } from "../../ui/page-kit.js";

/** Test's outcome: what the server heard in the test tone, or the daemon's words for the failure. */
export function VoiceTestResult({ test }: { test: UseMutationResult<TranscriptionTestOut, Error, void> }) {
  if (test.isPending)
    return (
      <p className="field-hint" role="status">
        <Icon name="spinner" size={14} /> Sending a test tone…
      </p>
    );
  if (test.error) return <InlineError error={test.error} />;
  const out = test.data;
  if (!out) return null;
  return (
    <div className={`banner ${out.ok ? "banner-success" : "banner-danger"}`} role="status" aria-label="Test result">
      <Icon name={out.ok ? "check" : "alert"} />
      <span className="banner-text">
        <strong>{out.ok ? "Transcription works" : "Test failed"}</strong>
        {out.ok
          ? out.transcript
            ? ` — heard “${out.transcript}”`
            : " — the server answered (the test tone has no words, so an empty transcript is normal)"
          : ` — ${out.error ?? "no reason given"}`}
      </span>
    </div>
  );
}
