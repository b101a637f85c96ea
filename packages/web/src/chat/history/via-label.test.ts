import { expect, test } from "vitest";
import { bindingTitle, viaLabel } from "./date-groups.js";

test("a conversation bound to a forum topic shows its channel and that it lives in a topic", () => {
  expect(viaLabel({ channel: "telegram" })).toBe("via Telegram");
  expect(viaLabel({ channel: "telegram", thread_id: null })).toBe("via Telegram");
  expect(viaLabel({ channel: "telegram", thread_id: "42" })).toBe("via a Telegram topic");
});

test("a conversation in a Discord thread says thread, in the platform's own word from the daemon", () => {
  expect(viaLabel({ channel: "discord", thread_id: "9/7", thread_noun: "thread" })).toBe("via a Discord thread");
  expect(viaLabel({ channel: "discord" })).toBe("via Discord");
});

test("the chip's tooltip names the chat, or the thread and where it hangs in the platform's words", () => {
  expect(bindingTitle({ channel: "telegram", chat_id: "5" })).toBe("Replies also go to the Telegram chat 5");
  expect(bindingTitle({ channel: "telegram", chat_id: "-100", thread_id: "42" })).toBe("Replies also go to its own topic in the Telegram group -100");
  expect(bindingTitle({ channel: "discord", chat_id: "9", thread_id: "9/7", thread_noun: "thread", place_noun: "channel" })).toBe("Replies also go to its own thread in the Discord channel 9");
});
