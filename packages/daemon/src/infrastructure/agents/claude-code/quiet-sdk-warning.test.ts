import { expect, test } from "vitest";
import { quietCanUseToolWarning } from "./quiet-sdk-warning.js";

test("the SDK's canUseTool-shadowed warning is dropped; other warnings still arrive", async () => {
  quietCanUseToolWarning();
  const seen: string[] = [];
  const listener = (w: Error & { code?: string }) => seen.push(w.code ?? w.message);
  process.on("warning", listener);
  const next = new Promise<void>((resolve) => process.once("warning", () => resolve()));
  process.emitWarning("canUseTool will not be invoked", { code: "CLAUDE_SDK_CAN_USE_TOOL_SHADOWED" });
  process.emitWarning("something else", { code: "COFFER_TEST_OTHER" });
  await next;
  process.off("warning", listener);
  // Warnings arrive in order: had the first not been dropped, it would be seen first.
  expect(seen).toEqual(["COFFER_TEST_OTHER"]);
});
