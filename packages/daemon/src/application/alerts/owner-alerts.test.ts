import type { ConversationListEvent } from "@coffer/protocol";
import { describe, expect, test } from "vitest";
import type { Conversation } from "../../domain/conversation.js";
import { alertText, conversationLink, holdText } from "../channels/alert-text.js";
import { ConversationListEvents } from "../turns/list-events.js";
import { AlertSettings, DEFAULT_ALERT_SETTINGS } from "./alert-settings.js";
import { alertKindFor, OwnerAlerts, type OwnerAlert } from "./owner-alerts.js";

const conv: Conversation = {
  id: "c1",
  agentKey: "scripted",
  title: "Fix the build",
  titleSetByOwner: false,
  modelId: null,
  agentConfig: {},
  channel: null,
  queuePaused: false,
  createdAt: 0,
  updatedAt: 0,
  archivedAt: null,
};
const done = { type: "turn_done" as const, prompt_tokens: null, completion_tokens: null, stop_reason: "end_turn", model: null };
const failed = { type: "turn_error" as const, code: "turn_timeout" as const, message: "no output for 600 s" };
const silentLogger = { debug() {}, info() {}, warn() {}, error() {} };

function memorySettings() {
  const rows = new Map<string, unknown>();
  const audits: { action: string; details: unknown }[] = [];
  const settings = new AlertSettings({ get: (k) => rows.get(k), set: (k, v) => rows.set(k, v) }, (_a, action, details) => audits.push({ action, details }), { now: () => 0 });
  return { settings, audits, rows };
}

describe("which turn ends alert", () => {
  test("finished and failed turns alert; a turn the owner stopped, deleted or shut down does not", () => {
    expect(alertKindFor(done, null)).toBe("turn_finished");
    expect(alertKindFor(failed, null)).toBe("turn_failed");
    expect(alertKindFor({ ...failed, code: "model_unreachable" }, "unreachable")).toBe("turn_failed");
    expect(alertKindFor({ ...failed, code: "turn_timeout" }, "timeout")).toBe("turn_failed");
    expect(alertKindFor({ ...done, stop_reason: "interrupted" }, "interrupt")).toBeNull();
    expect(alertKindFor({ ...done, stop_reason: "interrupted" }, null)).toBeNull();
    expect(alertKindFor({ ...failed, code: "daemon_shutdown" }, "shutdown")).toBeNull();
    expect(alertKindFor(null, "discard")).toBeNull();
  });
});

describe("alert settings", () => {
  test("everything alerts by default; a patch changes only what it names and is audited", () => {
    const { settings, audits } = memorySettings();
    expect(settings.get()).toEqual(DEFAULT_ALERT_SETTINGS);
    const next = settings.update({ telegram: { turn_finished: false } });
    expect(next).toEqual({ browser: DEFAULT_ALERT_SETTINGS.browser, telegram: { turn_finished: false, turn_failed: true, question_asked: true } });
    expect(settings.get()).toEqual(next);
    expect(audits).toEqual([{ action: "alert_settings_changed", details: next }]);
  });

  test("a damaged stored value falls back to the defaults, field by field", () => {
    const { settings, rows } = memorySettings();
    rows.set("alerts", { browser: { turn_finished: "yes", turn_failed: false }, telegram: 3 });
    expect(settings.get()).toEqual({ browser: { turn_finished: true, turn_failed: false, question_asked: true }, telegram: DEFAULT_ALERT_SETTINGS.telegram });
  });
});

describe("the fan-out", () => {
  test("the page hears only the kinds its surface alerts on; a sink hears only its own; a failing sink harms no one", () => {
    const { settings } = memorySettings();
    const list = new ConversationListEvents();
    const heard: ConversationListEvent[] = [];
    list.listen((e) => heard.push(e));
    const alerts = new OwnerAlerts(settings, list, silentLogger);
    const phone: OwnerAlert[] = [];
    alerts.addSink({ surface: "telegram", alert: () => { throw new Error("boom"); } });
    alerts.addSink({ surface: "telegram", alert: (a) => phone.push(a) });
    settings.update({ browser: { turn_finished: false }, telegram: { turn_failed: false } });

    alerts.turnEnded(conv, done, null);
    alerts.turnEnded(conv, failed, null);
    alerts.turnEnded(conv, { ...done, stop_reason: "interrupted" }, "interrupt");
    alerts.questionAsked(conv, { questionId: "q1", askedAt: 0, questions: [{ header: "", text: "Where\nto?", options: [], multi_select: false, allow_free_text: true }] });

    expect(heard).toEqual([
      { type: "conversation_alert", conversation_id: "c1", title: "Fix the build", kind: "turn_failed", detail: "no output for 600 s" },
      { type: "conversation_alert", conversation_id: "c1", title: "Fix the build", kind: "question_asked", detail: "Where to?", question_id: "q1" },
    ]);
    expect(phone.map((a) => a.kind)).toEqual(["turn_finished", "question_asked"]);
  });
});

describe("the phone's alert text", () => {
  test("headline, the detail cut short, and the link back", () => {
    const link = conversationLink("https://coffer.example.test/", "c 1");
    expect(link).toBe("https://coffer.example.test/chat/c%201");
    expect(alertText({ conversation: conv, kind: "turn_finished", detail: null }, link)).toBe(`✔️ Finished: Fix the build\n${link}`);
    expect(alertText({ conversation: conv, kind: "turn_failed", detail: "boom" }, link)).toBe(`⚠️ Failed: Fix the build\nboom\n${link}`);
    const long = alertText({ conversation: { ...conv, title: "" }, kind: "question_asked", detail: "x".repeat(500) }, link);
    expect(long.split("\n")[0]).toBe("❓ Needs you: Untitled conversation");
    expect(long.split("\n")[1]).toHaveLength(200);
  });

  test("a hold says until when; its end says who lifted it", () => {
    const until = new Date(2026, 11, 3, 14, 5);
    expect(holdText({ reason: "plan_limit", until: until.toISOString() }, null, new Date(2026, 11, 3, 12, 0))).toBe(
      "⏸ Paused until 14:05 — plan limit. The queue resumes by itself then; resume it earlier from Coffer.",
    );
    expect(holdText(null, "reset", until)).toBe("▶️ The plan limit has reset: the queue runs again.");
    expect(holdText(null, "owner", until)).toBe("▶️ The queue was resumed.");
  });
});
