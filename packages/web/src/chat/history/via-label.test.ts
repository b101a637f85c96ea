import { expect, test } from "vitest";
import { viaLabel } from "./date-groups.js";

test("a conversation bound to a forum topic shows its channel and that it lives in a topic", () => {
  expect(viaLabel({ channel: "telegram" })).toBe("via Telegram");
  expect(viaLabel({ channel: "telegram", thread_id: null })).toBe("via Telegram");
  expect(viaLabel({ channel: "telegram", thread_id: "42" })).toBe("via a Telegram topic");
});
