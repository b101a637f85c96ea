/**
 * A test-only agent (never registered by the daemon itself). It proves the provider
 * seam (docs/architecture.md, "Adding an agent"): registering it needs no change to routes, schema, engine or page.
 *
 * A message whose text is JSON `{"script":[...steps]}` plays those steps; any other
 * text gets an echo reply. Steps:
 *   {"text":"..."}                          one text_delta
 *   {"repeat":N,"text":"x","perSecond":R}   N deltas, paced at R/s when given (benches)
 *   {"clock":N,"perSecond":R}              N deltas whose text is "<i>@<emit time ms>\n" (latency benches)
 *   {"tool":{"id","name","input","output","error"}}  tool_call then tool_result
 *   {"tool":{…,"until":"name"}}            the call runs until the test opens that gate (aborted: no result)
 *   {"retry":{"attempt","max","message","afterMs"}}  a retrying notice (after afterMs, like a backoff)
 *   {"retry":{"attempt","max","message","afterMs"}}  a retrying notice, after afterMs (a backoff)
 *   {"limits":{"status","window","used","resetsInMs"}}  a plan_limits report (one window)
 *   {"context":{"used","window"}}           a context_usage report (window may be null)
 *   {"notice":"..."}                        Coffer's one-line notice (agent_session_reseeded), as an adapter yields it
 *   {"gate":"name"}                         wait until the test opens that gate (in-process)
 *   {"hang":true}                           wait until aborted (or the process dies)
 *   {"ask":{"questions":[...]}}             ask the owner through AdapterServices.ask, then one
 *                                            text_delta "answers: <JSON>" (a cancelled ask ends the script)
 *   {"await_steer":true}                    wait for a steered message, then one text_delta "steered: <text>"
 *                                           (the agent's "next model request" reading it)
 *   {"audit":{"action","details"}}          an audit row through AdapterServices.audit (what an adapter
 *                                           records, e.g. an agent's own error text)
 *
 * `{{NAME}}` in any string of a step reads as the provider's `knows[NAME]` (a value the agent
 * read somewhere), so a test can make the agent say a secret its own message does not hold;
 * `{{NAME:from:to}}` is that value's slice (a secret split across deltas).
 *
 * Steering: the adapter's `steer` takes a text while its turn runs (unless the provider's
 * `steerable` is false) and records it on the turn; after the turn it refuses.
 *   {"done":{...}} / {"error":{code,message}} / {"throw":"msg"} / {"end":true}
 * Without a terminal step the script ends with turn_done.
 */
import type { AgentEvent, AuditAction, Question, TurnFailureCode } from "@coffer/protocol";
import type { AdapterServices, AgentAdapter, AgentProvider, TurnInput } from "../../src/main.js";
import { AgentConfigRejected, AgentUnavailable } from "../../src/main.js";
import { Gates } from "../fakes/gates.js";

export type Step =
  | { text: string }
  | { repeat: number; text: string; perSecond?: number }
  | { clock: number; perSecond?: number }
  | { tool: { id: string; name: string; input?: unknown; output?: unknown; error?: string | null; until?: string } }
  | { retry: { attempt: number; max?: number; message: string; afterMs?: number } }
  | { notice: string }
  | { limits: { status: "allowed" | "warning" | "rejected"; window: string; used: number; resetsInMs: number } }
  | { context: { used: number; window: number | null } }
  | { gate: string }
  | { hang: true }
  | { ask: { questions: Question[] } }
  | { await_steer: true }
  | { audit: { action: AuditAction; details: Record<string, unknown> } }
  | { done: { prompt_tokens?: number; completion_tokens?: number; stop_reason?: string; model?: string } }
  | { error: { code: TurnFailureCode; message: string } }
  | { throw: string }
  | { end: true };

export function script(...steps: Step[]): string {
  return JSON.stringify({ script: steps });
}

export const SCRIPTED_AGENT_KEY = "scripted";
export const SCRIPTED_DEFAULT_MODEL = "scripted-1";

export interface ScriptedTurnRecord {
  readonly conversationId: string;
  readonly text: string;
  readonly model: string;
  /** The text this turn's deltas carried, as the agent yielded them: the ground truth a client's rebuilt text is checked against. */
  emitted: string;
  /** Texts steered into this turn, in the order the agent took them. */
  readonly steered: string[];
  /** When each steered text was read by the turn (wallClockMs), for the steer bench. */
  readonly steerReadAt: number[];
}

/** A running scripted turn's inbox for steered messages. */
class SteerInbox {
  private readonly items: string[] = [];
  private wake: (() => void) | null = null;
  open = true;

  push(text: string): void {
    this.items.push(text);
    this.wake?.();
    this.wake = null;
  }

  private stopped: Promise<void> | null = null;

  async next(signal: AbortSignal): Promise<string | null> {
    // One abort listener per turn, not one per wait (a bench steers dozens of times).
    this.stopped ??= aborted(signal);
    while (this.items.length === 0) {
      if (signal.aborted) return null;
      await Promise.race([new Promise<void>((r) => (this.wake = r)), this.stopped]);
    }
    return this.items.shift()!;
  }
}

export class ScriptedAgentProvider implements AgentProvider {
  readonly agentKey = SCRIPTED_AGENT_KEY;
  readonly displayName = "Scripted (tests)";
  // Nothing to install: it runs inside the test's daemon. A neutral mark, like any agent the page does not know.
  readonly setup = { install: { command: "true" }, sign_in: [] };
  readonly glyph = "generic" as const;
  readonly gates = new Gates();
  readonly turns: ScriptedTurnRecord[] = [];
  readonly deleted: string[] = [];
  /** When set, building an adapter fails with this message (a turn that cannot start). */
  failBuilds: string | null = null;
  /** False: adapters have no steer capability (an agent that cannot be steered). */
  steerable = true;
  /** When set, steer throws this message (an agent that fails to take it). */
  failSteers: string | null = null;
  /** Values the agent "knows": `{{NAME}}` in a script's strings stands for knows[NAME]. */
  knows: Record<string, string> = {};
  /** When set, steer opens gate `asked:<name>`, then waits for gate <name> before answering (a slow agent: the turn may end meanwhile). */
  holdSteers: string | null = null;

  async available(): Promise<boolean> {
    return true;
  }

  async initConversation(config: unknown) {
    const c = (config ?? {}) as Record<string, unknown>;
    if (c.reject) throw new AgentConfigRejected(`scripted agent rejects: ${String(c.reject)}`, "test_rejection");
    return typeof c.model === "string" && c.model.trim() ? { model: c.model.trim() } : {};
  }

  async buildAdapter(conv: { id: string; agentConfig: Record<string, unknown> }, services: AdapterServices): Promise<AgentAdapter> {
    if (this.failBuilds) throw new AgentUnavailable(this.agentKey, this.failBuilds);
    const model = typeof conv.agentConfig.model === "string" ? conv.agentConfig.model : SCRIPTED_DEFAULT_MODEL;
    const gates = this.gates;
    const turns = this.turns;
    const knows = this.knows;
    const inbox = new SteerInbox();
    let record: ScriptedTurnRecord | null = null;
    const adapter: AgentAdapter = {
      model,
      runTurn(input: TurnInput, signal: AbortSignal): AsyncIterable<AgentEvent> {
        record = { conversationId: input.conversation.id, text: input.text, model, emitted: "", steered: [], steerReadAt: [] };
        turns.push(record);
        const steps = expandKnown(stepsFor(input.text), knows);
        return recorded(play(steps, model, gates, signal, inbox, record, services), record, inbox);
      },
    };
    if (!this.steerable) return adapter;
    return {
      ...adapter,
      steer: async (text: string) => {
        if (this.failSteers) throw new Error(this.failSteers);
        if (this.holdSteers) {
          gates.open(`asked:${this.holdSteers}`); // the test's signal: the steer is in flight
          await gates.opened(this.holdSteers);
        }
        if (!record || !inbox.open) return false;
        inbox.push(text);
        return true;
      },
    };
  }

  async onConversationDeleted(id: string): Promise<void> {
    this.deleted.push(id);
  }
}

async function* recorded(events: AsyncIterable<AgentEvent>, record: ScriptedTurnRecord, inbox: SteerInbox): AsyncGenerator<AgentEvent> {
  try {
    for await (const event of events) {
      // A terminal event means the turn takes nothing more: a later steer must be refused.
      if (event.type === "turn_done" || event.type === "turn_error") inbox.open = false;
      if (event.type === "text_delta") record.emitted += event.text;
      yield event;
    }
  } finally {
    inbox.open = false;
  }
}

function expandKnown(steps: Step[], knows: Record<string, string>): Step[] {
  if (Object.keys(knows).length === 0) return steps;
  const json = JSON.stringify(steps).replace(/\{\{(\w+)(?::(\d+):(\d+))?\}\}/g, (all, name: string, from?: string, to?: string) => {
    if (!(name in knows)) return all;
    const value = from === undefined ? knows[name]! : knows[name]!.slice(Number(from), Number(to));
    return JSON.stringify(value).slice(1, -1);
  });
  return JSON.parse(json) as Step[];
}

function stepsFor(text: string): Step[] {
  if (text.startsWith("{")) {
    try {
      const parsed = JSON.parse(text) as { script?: Step[] };
      if (Array.isArray(parsed.script)) return parsed.script;
    } catch {
      // not a script: echo it
    }
  }
  return [{ text: "echo: " }, { text }];
}

/** Sub-millisecond wall-clock time, comparable across processes on one machine. */
export function wallClockMs(): number {
  return performance.timeOrigin + performance.now();
}

/**
 * Wait `ms` or until aborted, whichever comes first. Removes its abort listener, so a
 * paced 8,000-delta turn does not pile thousands of listeners onto one signal.
 */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
  });
}

function aborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener("abort", () => resolve(), { once: true });
  });
}

async function* play(
  steps: Step[],
  model: string,
  gates: Gates,
  signal: AbortSignal,
  inbox: SteerInbox,
  record: ScriptedTurnRecord,
  services: AdapterServices,
): AsyncGenerator<AgentEvent> {
  let output = 0;
  for (const step of steps) {
    if (signal.aborted) return;
    if ("repeat" in step || "clock" in step) {
      const count = "repeat" in step ? step.repeat : step.clock;
      const start = Date.now();
      for (let i = 0; i < count; i++) {
        if (signal.aborted) return;
        if (step.perSecond) {
          const due = start + (i * 1000) / step.perSecond;
          const wait = due - Date.now();
          if (wait > 1) await pause(wait, signal);
        } else if (i % 256 === 255) {
          await new Promise((r) => setImmediate(r)); // let the daemon breathe, like a real pipe would
        }
        output += 1;
        yield { type: "text_delta", text: "repeat" in step ? step.text : `${i}@${wallClockMs().toFixed(3)}\n` };
      }
    } else if ("text" in step) {
      output += 1;
      yield { type: "text_delta", text: step.text };
    } else if ("tool" in step) {
      const t = step.tool;
      yield { type: "tool_call", tool_use_id: t.id, tool_name: t.name, tool_input: t.input ?? {} };
      if (t.until) await Promise.race([gates.opened(t.until), aborted(signal)]);
      if (signal.aborted) return;
      yield { type: "tool_result", tool_use_id: t.id, tool_name: t.name, output: t.output ?? null, error: t.error ?? null };
    } else if ("retry" in step) {
      const r = step.retry;
      if (r.afterMs) await pause(r.afterMs, signal);
      if (signal.aborted) return;
      yield { type: "retrying", attempt: r.attempt, max_attempts: r.max ?? null, message: r.message, delay_ms: r.afterMs ?? null };
    } else if ("notice" in step) {
      yield { type: "notice", code: "agent_session_reseeded", text: step.notice };
    } else if ("context" in step) {
      yield { type: "context_usage", used_tokens: step.context.used, window_tokens: step.context.window };
    } else if ("limits" in step) {
      const l = step.limits;
      const resets_at = new Date(Date.now() + l.resetsInMs).toISOString();
      yield { type: "plan_limits", status: l.status, windows: [{ window: l.window, used_percent: l.used, resets_at, window_minutes: 300 }] };
    } else if ("gate" in step) {
      await Promise.race([gates.opened(step.gate), aborted(signal)]);
    } else if ("ask" in step) {
      let answers;
      try {
        answers = await services.ask(step.ask.questions);
      } catch {
        return;
      }
      output += 1;
      yield { type: "text_delta", text: `answers: ${JSON.stringify(answers)}` };
    } else if ("await_steer" in step) {
      const text = await inbox.next(signal);
      if (text === null) return;
      record.steered.push(text);
      record.steerReadAt.push(wallClockMs());
      output += 1;
      yield { type: "text_delta", text: `steered: ${text}` };
    } else if ("audit" in step) {
      services.audit(step.audit.action, step.audit.details);
    } else if ("hang" in step) {
      await aborted(signal);
      return;
    } else if ("done" in step) {
      yield {
        type: "turn_done",
        prompt_tokens: step.done.prompt_tokens ?? 10,
        completion_tokens: step.done.completion_tokens ?? output,
        stop_reason: step.done.stop_reason ?? "end_turn",
        model: step.done.model ?? model,
      };
      return;
    } else if ("error" in step) {
      yield { type: "turn_error", code: step.error.code, message: step.error.message };
      return;
    } else if ("throw" in step) {
      throw new Error(step.throw);
    } else if ("end" in step) {
      return;
    }
  }
  if (signal.aborted) return;
  yield { type: "turn_done", prompt_tokens: 10, completion_tokens: output, stop_reason: "end_turn", model };
}
