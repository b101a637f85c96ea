import { ROUTES } from "@coffer/protocol";
import { act, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiProvider } from "../../api/api-context.js";
import type { CofferApi } from "../../api/client.js";
import { Composer } from "./composer.js";
import { usePrewarm, type PrewarmTarget } from "./use-prewarm.js";

/**
 * The daemon is stood in for by a recorder of calls: this pins what the page asks (the
 * daemon's side, with the real `claude`, is test/integration/warm-pool-claude.test.ts).
 */
function Draft({ agentKey, target }: { agentKey: string | null; target: PrewarmTarget }) {
  const onTyping = usePrewarm(agentKey, target);
  return <Composer agentName="Claude Code" running={false} stopping={false} paused={false} onSend={() => undefined} onStop={() => undefined} onTyping={onTyping} />;
}

function setup(agentKey: string | null, target: PrewarmTarget = {}) {
  const call = vi.fn(async () => ({ state: "started" }));
  render(
    <ApiProvider api={{ call } as unknown as CofferApi}>
      <Draft agentKey={agentKey} target={target} />
    </ApiProvider>,
  );
  return { call, box: screen.getByRole("textbox", { name: "Message Claude Code" }) };
}

afterEach(() => {
  vi.useRealTimers();
  localStorage.clear();
});

describe("pre-warm on the first keystroke", () => {
  it("one call per burst of typing, with the draft's folder and model, once the typing pauses", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { call, box } = setup("claude_code", { cwd: " /work/app ", model: "claude-sonnet-4-5" });
    await userEvent.type(box, "fix the build", { delay: null });
    expect(call).not.toHaveBeenCalled(); // debounced
    await act(() => vi.advanceTimersByTimeAsync(300));
    expect(call).toHaveBeenCalledTimes(1);
    expect(call).toHaveBeenCalledWith(ROUTES.prewarmAgent, { params: { agent: "claude_code" }, body: { cwd: "/work/app", model: "claude-sonnet-4-5" } });
    // More typing within the minute: no second call.
    await userEvent.type(box, " please", { delay: null });
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(call).toHaveBeenCalledTimes(1);
  });

  it("nothing without an available agent", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { call, box } = setup(null);
    await userEvent.type(box, "hello", { delay: null });
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(call).not.toHaveBeenCalled();
  });
});
