import type { MessageOut } from "@coffer/protocol";
import { describe, expect, test } from "vitest";
import { acceptance } from "../../../test/support/acceptance.js";
import { historyBefore, seededPrompt } from "./session-seed.js";

const say = (role: "user" | "assistant", text: string) => ({ role, content: [{ type: "text" as const, text }] });
/** n messages alternating owner / agent, numbered so each can be found in the prompt. */
const conversation = (n: number, size = 20) =>
  Array.from({ length: n }, (_, i) => say(i % 2 === 0 ? "user" : "assistant", `m${i} ${"x".repeat(size)}`));

describe("the seed of a fresh session", () => {
  test("no history: the owner's message alone", async () => {
    expect(await seededPrompt([], "hello")).toBe("hello");
  });

  acceptance(
    "024-agent-sessions",
    "the seeded history fits its budget: the latest messages verbatim, older ones condensed by the local model when one is set, else trimmed",
    async () => {
      const budget = { maxChars: 4000, verbatim: 4, trimmedChars: 30 };
      const history = conversation(10, 200);
      const trimmed = await seededPrompt(history, "next?", { budget });
      // The latest four verbatim, the six older ones cut to 30 characters, the new message last.
      for (let i = 6; i < 10; i++) expect(trimmed).toContain(history[i]!.content[0]!.text);
      for (let i = 0; i < 6; i++) {
        expect(trimmed).toContain(`m${i} ${"x".repeat(27)}…`);
        expect(trimmed).not.toContain(history[i]!.content[0]!.text);
      }
      expect(trimmed.endsWith("\n\nnext?")).toBe(true);

      // With a condenser (the local model), the older six are its summary instead.
      const seen: string[] = [];
      const condensed = await seededPrompt(history, "next?", {
        budget,
        condense: async (text) => {
          seen.push(text);
          return "SUMMARY: six older messages";
        },
      });
      expect(seen).toHaveLength(1);
      expect(seen[0]).toContain(history[0]!.content[0]!.text);
      expect(seen[0]).not.toContain(history[6]!.content[0]!.text);
      expect(condensed).toContain("Summary of the 6 earlier messages:\nSUMMARY: six older messages");
      expect(condensed).not.toContain("m0 ");
      // A condenser that fails (or has no model): trimmed, as without one.
      expect(await seededPrompt(history, "next?", { budget, condense: async () => null })).toBe(trimmed);
      expect(await seededPrompt(history, "next?", { budget, condense: () => Promise.reject(new Error("down")) })).toBe(trimmed);

      // Over budget: the oldest go first, and the prompt says how many.
      const huge = conversation(8, 1500);
      const bounded = await seededPrompt(huge, "next?", { budget });
      expect(bounded.length).toBeLessThan(budget.maxChars + 600);
      expect(bounded).toMatch(/\((\d+) earlier messages left out\)/);
      expect(bounded).toContain(huge[7]!.content[0]!.text);
    },
  );

  test("only text goes in: tool calls and their outputs are left out", async () => {
    const tool = {
      role: "assistant" as const,
      content: [
        { type: "tool_use" as const, tool_use_id: "t1", tool_name: "Bash", tool_input: { command: "cat secret-looking-output" } },
        { type: "text" as const, text: "Done." },
      ],
    };
    const prompt = await seededPrompt([say("user", "run it"), tool], "thanks");
    expect(prompt).toContain("Owner: run it\n\nYou: Done.");
    expect(prompt).not.toContain("secret-looking-output");
  });

  test("the history before a turn leaves out the turn's own reply and the message it answers", () => {
    const row = (seq: number, role: "user" | "assistant", status: MessageOut["status"]) =>
      ({ id: `${seq}`, seq, role, status, content: [{ type: "text", text: `${seq}` }] }) as unknown as MessageOut;
    const rows = [row(1, "user", "complete"), row(2, "assistant", "complete"), row(3, "user", "complete"), row(4, "assistant", "streaming")];
    expect(historyBefore(() => rows).map((m) => m.seq)).toEqual([1, 2]);
  });
});
