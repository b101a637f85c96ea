import type { TestConnectionOut } from "@coffer/protocol";
import type { UseMutationResult } from "@tanstack/react-query";
import { Icon } from "../../ui/icons.js";
import { InlineError } from "../../ui/page-kit.js";

const KIND: Record<string, string> = {
  auth: "authentication",
  not_found: "not found",
  refused: "connection refused",
  timeout: "timeout",
  rate_limited: "rate limited",
  provider_error: "provider error",
  bad_request: "bad request",
  credential_missing: "credential missing",
  unknown_wire: "unknown provider",
  unexpected: "unexpected",
};

/** The outcome of Test: ok with latency, or the humanised failure and its kind. */
export function TestResult({ test }: { test: UseMutationResult<TestConnectionOut, Error, void> }) {
  if (test.isPending)
    return (
      <p className="field-hint" role="status">
        <Icon name="spinner" size={14} /> Testing…
      </p>
    );
  if (test.error) return <InlineError error={test.error} />;
  const out = test.data;
  if (!out) return null;
  const d = out.detail;
  const kindWords = d.kind ? (KIND[d.kind] ?? d.kind) : null;
  return (
    <div className={`banner ${out.ok ? "banner-success" : "banner-danger"}`} role="status" aria-label="Test result">
      <Icon name={out.ok ? "check" : "alert"} />
      <span className="banner-text">
        {/* On success the daemon's message only repeats the headline ("connection ok"): the figures say the rest. */}
        <strong>{out.ok ? "Connection works" : "Test failed"}</strong>
        {!out.ok && ` — ${out.message}`}
        {!out.ok && kindWords && !out.message.toLowerCase().includes(kindWords) && ` · ${kindWords}`}
        {d.status !== undefined && ` · HTTP ${d.status}`}
        {out.ok && d.latency_ms !== undefined && ` · ${Math.round(d.latency_ms)} ms`}
      </span>
    </div>
  );
}
