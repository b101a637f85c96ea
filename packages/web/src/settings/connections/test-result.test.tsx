import type { TestConnectionOut } from "@coffer/protocol";
import type { UseMutationResult } from "@tanstack/react-query";
import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { TestResult } from "./test-result.js";

const settled = (data: TestConnectionOut) => ({ isPending: false, error: null, data }) as unknown as UseMutationResult<TestConnectionOut, Error, void>;

describe("TestResult", () => {
  it("says a working connection once, with its figures, not the daemon's echo of it", () => {
    render(<TestResult test={settled({ ok: true, message: "connection ok", detail: { wire: "anthropic", model: "m", latency_ms: 41.6, status: 200 } })} />);
    expect(screen.getByRole("status", { name: "Test result" })).toHaveTextContent(/^Connection works · HTTP 200 · 42 ms$/);
  });

  it("says a failure with the daemon's reason and its kind", () => {
    render(<TestResult test={settled({ ok: false, message: "The key was refused.", detail: { wire: "anthropic", model: "m", kind: "auth", status: 401 } })} />);
    expect(screen.getByRole("status", { name: "Test result" })).toHaveTextContent("Test failed — The key was refused. · authentication · HTTP 401");
  });
});
