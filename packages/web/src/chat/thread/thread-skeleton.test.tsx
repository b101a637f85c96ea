import { act, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ThreadSkeleton } from "./thread-skeleton.js";

describe("ThreadSkeleton", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("shows (and is announced) only after 300 ms, so a fast load never flashes", () => {
    const { container } = render(<ThreadSkeleton />);
    expect(screen.queryByRole("status", { name: "Loading messages" })).toBeNull();
    const status = container.querySelector<HTMLElement>('[role="status"]')!;
    expect(status.style.visibility).toBe("hidden");
    act(() => vi.advanceTimersByTime(299));
    expect(screen.queryByRole("status", { name: "Loading messages" })).toBeNull();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.getByRole("status", { name: "Loading messages" })).toBe(status);
    expect(status.closest("[aria-busy]")?.getAttribute("aria-busy")).toBe("true");
  });
});
