import { z } from "zod";
import type { StartOptions } from "../../src/main.js";

/** A test-only builtin tool, `coffer__test_echo`: answers `{ n }`, so a call through the gateway is cheap and logged. */
export const registerEchoTool: NonNullable<StartOptions["extraBuiltinTools"]> = (registry) =>
  registry.register({
    name: "test_echo",
    description: "Test-only builtin: echoes n.",
    input: z.object({ n: z.number() }),
    readOnly: true,
    run: async ({ n }) => ({ ok: true, value: { n } }),
  });
