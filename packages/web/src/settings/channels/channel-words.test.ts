import type { ChannelOut } from "@coffer/protocol";
import { describe, expect, it } from "vitest";
import { CHANNEL_STATUS, deadCodeText, ownerText, validFor, visibleError } from "./channel-words.js";

const NOW = Date.parse("2026-12-02T12:00:00Z");
const at = (msAgo: number) => new Date(NOW - msAgo).toISOString();

function channel(over: Partial<ChannelOut> = {}): ChannelOut {
  return {
    id: "ch1",
    kind: "telegram",
    name: "Phone",
    credentials: { bot_token: "tg-bot" },
    bot_token_ref: "tg-bot",
    default_agent: "claude_code",
    default_cwd: null,
    default_model: null,
    enabled: true,
    bot: { username: "coffer_bot", name: "Coffer" },
    owner: null,
    pairing: null,
    status: { state: "polling", last_error: null, last_error_at: null },
    counts: { messages_in: 0, messages_out: 0, strangers_ignored: 0, outbox: 0, conversations: 0 },
    created_at: at(0),
    updated_at: at(0),
    ...over,
  };
}

describe("channel words", () => {
  it("names every poller state with a tone and a word", () => {
    expect(CHANNEL_STATUS.polling).toEqual({ tone: "success", word: "Connected" });
    expect(CHANNEL_STATUS.retrying.tone).toBe("warning");
    expect(CHANNEL_STATUS.stopped.tone).toBe("danger");
    expect(CHANNEL_STATUS.disabled.tone).toBe("neutral");
  });

  it("shows the last error only while it explains the state", () => {
    const failed = { last_error: "Conflict: another poller", last_error_at: at(1000) };
    expect(visibleError(channel({ status: { state: "retrying", ...failed } }))).toBe("Conflict: another poller");
    expect(visibleError(channel({ status: { state: "stopped", ...failed } }))).toBe("Conflict: another poller");
    expect(visibleError(channel({ status: { state: "polling", ...failed } }))).toBeNull();
  });

  it("says who the channel is paired with, and since when", () => {
    expect(ownerText(channel(), NOW)).toBe("Not paired");
    expect(ownerText(channel({ owner: { name: "Ada", paired_at: at(3 * 60_000) } }), NOW)).toMatch(/^Paired with Ada · 3 minutes ago$/);
    expect(ownerText(channel({ owner: { name: "Ada", paired_at: at(10_000) } }), NOW)).toBe("Paired with Ada · just now");
  });

  it("counts a pairing code down in minutes, then seconds, then expired", () => {
    expect(validFor(new Date(NOW + 59 * 60_000 + 30_000).toISOString(), NOW)).toBe("valid for 59 min");
    expect(validFor(new Date(NOW + 42_000).toISOString(), NOW)).toBe("valid for 42 s");
    expect(validFor(new Date(NOW - 1).toISOString(), NOW)).toBe("expired");
  });

  it("says a voided or expired pairing code out loud, and a late attempt with it (issue 21)", () => {
    const pairing = (state: "live" | "expired" | "voided", refused_at: string | null = null) => ({ state, expires_at: at(-60_000), refused_at });
    expect(deadCodeText(channel())).toBeNull();
    expect(deadCodeText(channel({ pairing: pairing("live") }))).toBeNull();
    expect(deadCodeText(channel({ pairing: pairing("voided") }))).toBe("Pairing code voided: too many strangers guessed wrong. Pair phone for a new one.");
    expect(deadCodeText(channel({ pairing: pairing("expired", at(0)) }))).toBe("Pairing code expired. It was sent after that and paired nobody. Pair phone for a new one.");
  });
});
