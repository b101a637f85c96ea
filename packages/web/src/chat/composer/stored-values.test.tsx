import { MAX_MESSAGE_CHARS } from "@coffer/protocol";
import { renderHook, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, expect, vi } from "vitest";
import { acceptance } from "../../../test/acceptance.js";
import { useTheme } from "../../app/theme.js";
import { loadSession } from "../../api/token.js";
import { lastAgent } from "../draft/last-agent.js";
import { Composer } from "./composer.js";
import { loadDraft, loadUnsent, MAX_OUTBOX_CHARS, MAX_UNSENT } from "./draft-store.js";

/**
 * localStorage belongs to 127.0.0.1:<port>: whoever held the port while the daemon was down
 * wrote into it (docs/decisions.md, "Hardening II: the page's storage"). Each value below is
 * what such a squatter could plant; the page must read it as hostile input.
 */
const CONVERSATION = "c1";
const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;
const plant = (entries: Record<string, string>) => Object.entries(entries).forEach(([k, v]) => localStorage.setItem(k, v));
const outbox = `coffer.draft.outbox.${CONVERSATION}`;

afterEach(() => {
  localStorage.clear();
  vi.restoreAllMocks();
});

acceptance("021-hardening", "every value the page reads from storage (drafts, last agent, queued edits) is validated and bounded; a malformed or planted one is ignored", async () => {
  // Outbox: not JSON, not a list, entries of the wrong shape — each ignored, never a crash.
  for (const junk of ["{not json", '{"clientId":"x","text":"y"}', "null", "42", '"text"']) {
    plant({ [outbox]: junk });
    expect(loadUnsent(CONVERSATION)).toEqual([]);
  }
  plant({
    [outbox]: JSON.stringify([
      { clientId: uuid(1), text: "kept" },
      { clientId: "not-a-uuid\nInjected: header", text: "bad key" },
      { clientId: "x".repeat(101), text: "key too long" },
      { clientId: uuid(2), text: "x".repeat(MAX_MESSAGE_CHARS + 1) },
      { clientId: uuid(3), text: "   " },
      { clientId: uuid(4), text: 7 },
      { clientId: uuid(5), text: "extra fields are dropped", evil: "<img src=x onerror=alert(1)>" },
      null,
      "a string",
    ]),
  });
  expect(loadUnsent(CONVERSATION)).toEqual([
    { clientId: uuid(1), text: "kept" },
    { clientId: uuid(5), text: "extra fields are dropped" },
  ]);
  // Bounded: thousands of planted entries yield at most MAX_UNSENT, and a list larger than any
  // the page could write is not even parsed.
  plant({ [outbox]: JSON.stringify(Array.from({ length: 5000 }, (_, i) => ({ clientId: uuid(i), text: `m${i}` }))) });
  expect(loadUnsent(CONVERSATION)).toHaveLength(MAX_UNSENT);
  plant({ [outbox]: JSON.stringify([{ clientId: uuid(1), text: "y".repeat(MAX_MESSAGE_CHARS) }]).padEnd(MAX_OUTBOX_CHARS + 1, " ") });
  expect(loadUnsent(CONVERSATION)).toEqual([]);

  // Drafts: one within a message's size comes back into the composer (the owner still presses
  // Send); an oversized one is ignored, for a conversation and for a new chat.
  plant({ "coffer.draft.c.c1": "a draft", "coffer.draft.c.c2": "z".repeat(MAX_MESSAGE_CHARS + 1), "coffer.draft.new": "n".repeat(MAX_MESSAGE_CHARS + 1) });
  expect(loadDraft("c1")).toBe("a draft");
  expect(loadDraft("c2")).toBe("");
  expect(loadDraft("new")).toBe("");
  const onSend = vi.fn();
  render(<Composer agentName="Claude Code" running={false} stopping={false} paused={false} draftKey="c2" onSend={onSend} onStop={() => undefined} />);
  expect(screen.getByRole("textbox", { name: "Message Claude Code" })).toHaveValue("");
  expect(onSend).not.toHaveBeenCalled();

  // Queued edits: an edit's text is never written to storage, so nothing planted can pose as one.
  localStorage.clear();
  const { unmount } = render(
    <Composer agentName="Codex" running stopping={false} paused={false} draftKey="c3" editing={{ id: "p1", text: "queued" }} onSend={onSend} onStop={() => undefined} />,
  );
  await userEvent.type(screen.getByRole("textbox", { name: "Message Codex" }), " edited");
  expect(Object.keys(localStorage)).toEqual([]);
  unmount();

  // Last agent: a key of an agent's shape, or nothing (the draft page then checks it against
  // the agents the daemon lists).
  plant({ "coffer.lastAgent": "claude_code" });
  expect(lastAgent()).toBe("claude_code");
  for (const junk of ["a".repeat(65), "claude code; rm -rf", ""]) {
    plant({ "coffer.lastAgent": junk });
    expect(lastAgent()).toBeNull();
  }

  // Theme: one of three words, else the system's.
  plant({ "coffer.theme": "dark\"><script>" });
  expect(renderHook(() => useTheme()).result.current[0]).toBe("system");

  // Session: a planted one of the wrong shape (it would go into an Authorization header) is none.
  for (const junk of ['{"session_id":"a\\r\\nX: y","secret":"s"}', JSON.stringify({ session_id: "s".repeat(65), secret: "x" }), JSON.stringify({ session_id: "sid", secret: "x".repeat(1000) })]) {
    plant({ "coffer.session": junk });
    expect(loadSession()).toBeNull();
  }

  // Storage that throws (blocked, or a hostile getter): every reader falls back, nothing crashes.
  vi.spyOn(Storage.prototype, "getItem").mockImplementation(() => {
    throw new DOMException("blocked", "SecurityError");
  });
  expect(loadUnsent(CONVERSATION)).toEqual([]);
  expect(loadDraft("c1")).toBe("");
  expect(lastAgent()).toBeNull();
  expect(renderHook(() => useTheme()).result.current[0]).toBe("system");
  expect(loadSession()).toBeNull();
});
