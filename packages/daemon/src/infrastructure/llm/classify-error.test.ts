import { expect, test } from "vitest";
import { classifyError } from "./classify-error.js";

test("a port fetch refuses to use is explained, not reported as a bare 'fetch failed'", async () => {
  const err = await fetch("http://127.0.0.1:1/").catch((e: unknown) => e);
  expect(classifyError(err)).toEqual({ kind: "unexpected", providerMessage: "that port is blocked for HTTP requests; use another one" });
});

test("refused connections and HTTP statuses are classified through the cause chain", () => {
  expect(classifyError(new Error("fetch failed", { cause: Object.assign(new Error("connect"), { code: "ECONNREFUSED" }) }))).toEqual({ kind: "refused" });
  expect(classifyError(Object.assign(new Error("401 bad key"), { status: 401 }))).toEqual({ kind: "auth", status: 401 });
});
