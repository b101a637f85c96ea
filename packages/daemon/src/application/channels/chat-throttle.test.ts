import { expect, test } from "vitest";
import { ChatThrottle } from "./chat-throttle.js";

test("one limit per chat: an edit in one topic of a group holds every topic of it back (Telegram)", () => {
  const t = new ChatThrottle();
  t.used("group", "topic-a", 1_000, 1_500);
  expect(t.slot("group", "topic-a", 1_000)).toBe(2_500);
  expect(t.slot("group", "topic-b", 1_000)).toBe(2_500);
  expect(t.slot("group", null, 1_000)).toBe(2_500);
  expect(t.slot("other", null, 1_000)).toBe(1_000);
});

test("one limit per thread where the platform limits threads apart: two threads never wait for each other (Discord)", () => {
  const t = new ChatThrottle(true);
  t.used("channel", "thread-a", 1_000, 1_500);
  expect(t.slot("channel", "thread-a", 1_000)).toBe(2_500);
  expect(t.slot("channel", "thread-b", 1_000)).toBe(1_000);
  // The channel itself (a DM or the parent's main chat) is its own bucket too.
  expect(t.slot("channel", null, 1_000)).toBe(1_000);
  t.used("channel", null, 1_200, 1_500);
  expect(t.slot("channel", "thread-a", 1_200)).toBe(2_500);
  expect(t.slot("channel", null, 1_200)).toBe(2_700);
});
