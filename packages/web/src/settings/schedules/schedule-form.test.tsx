import { SCHEDULE_ROUTES, type AgentOut, type ScheduleCreate } from "@coffer/protocol";
import { act, screen } from "@testing-library/react";
import { useState } from "react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { renderWithApi } from "../../../test/render-with-api.js";
import { ScheduleForm } from "./schedule-form.js";

const agents: AgentOut[] = [{ agent_key: "claude_code", display_name: "Claude Code", available: true, setup: { install: { command: "install claude" }, sign_in: [] }, glyph: "asterisk" }];
const conversations = [{ id: "c1", title: "Nightly triage" }];

type Lists = { agents: AgentOut[]; conversations: { id: string; title: string }[] };

/** The form as the page holds it: its lists are query data that can change while it is open. */
function open(first: Lists, call: (...args: never[]) => unknown, onDone = vi.fn()) {
  let setLists!: (l: Lists) => void;
  function Harness() {
    const [lists, set] = useState(first);
    setLists = set;
    return <ScheduleForm {...lists} zone="Europe/Berlin" onDone={onDone} />;
  }
  renderWithApi(<Harness />, call);
  return (l: Lists) => act(() => setLists(l));
}

describe("ScheduleForm", () => {
  // The defect: opened before the page's lists had loaded, the form fixed "a fresh conversation"
  // and an empty agent as its defaults, so the owner's conversations never showed up in it.
  it("opened while the lists are still loading, takes their defaults when they arrive", async () => {
    const call = vi.fn(async (route: unknown, args: { body: ScheduleCreate }) => {
      expect(route).toBe(SCHEDULE_ROUTES.createSchedule);
      return { id: "s1", ...args.body };
    });
    const arrive = open({ agents: [], conversations: [] }, call);
    expect(screen.getByRole("radio", { name: /A fresh conversation each run/ })).toBeChecked();

    arrive({ agents, conversations });
    expect(screen.getByRole("radio", { name: /One conversation/ })).toBeChecked();
    expect(screen.getByLabelText("Conversation", { exact: true })).toHaveValue("c1");

    await userEvent.type(screen.getByLabelText("Name"), "Morning triage");
    await userEvent.type(screen.getByLabelText("Prompt"), "triage");
    await userEvent.click(screen.getByRole("button", { name: "Add schedule" }));
    expect(call.mock.calls[0]![1].body.target).toEqual({ conversation_id: "c1" });
  });

  it("the owner's own choice stays when the lists change under it", async () => {
    const change = open({ agents, conversations }, vi.fn());
    await userEvent.click(screen.getByRole("radio", { name: /A fresh conversation each run/ }));
    change({ agents, conversations: [...conversations, { id: "c2", title: "Other" }] });
    expect(screen.getByRole("radio", { name: /A fresh conversation each run/ })).toBeChecked();
    expect(screen.getByLabelText("Agent")).toHaveValue("claude_code");
  });
});
