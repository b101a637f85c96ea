import { answeredFromText, foldContent, hasOpenTool, holdLabel, humanToolName, retryingLabel, type ChatEvent, type ContentBlock } from "@coffer/protocol";
import { attachmentLine, clean, summarise } from "./output.js";
import { cmd } from "./hints.js";

/** Renders live turn events as a terminal transcript: streamed text, tools as compact lines. */
export class TurnPrinter {
  private midLine = false;
  /**
   * Notices (queue changes, a steer that fell back) that arrived while a streamed line was
   * half written: printed once that line ends (its newline, the next line of the transcript,
   * or the turn's end), never in the middle of the agent's words.
   */
  private readonly held: string[] = [];
  /** The reply being printed, folded as the daemon folds it: which of its tool calls still run. */
  private part: readonly ContentBlock[] = [];
  /**
   * A steer that came while a tool call of the reply ran: its lines wait until that reply has
   * every call's result, as the stored thread puts it (docs/decisions.md, "Steering keeps one
   * tool card"). `show` is false for a steer only observed, not ours to print.
   */
  private steerAfterTool: { blocks: readonly ContentBlock[]; steers: { text: string; show: boolean }[] } | null = null;

  constructor(
    private readonly out: NodeJS.WritableStream = process.stdout,
    private readonly showUser = true,
  ) {}

  /** Follow an event without printing it (`chat send` skips the turn's events before its own). */
  observe(event: ChatEvent): void {
    if (event.type === "steered") this.steered(event.user_message.content, event.previous_state, false);
    else this.track(event);
  }

  print(event: ChatEvent): void {
    this.printEvent(event);
    if (event.type !== "steered") this.track(event);
  }

  private track(event: ChatEvent): void {
    if (event.type === "turn_start") {
      this.part = [];
      this.steerAfterTool = null;
      return;
    }
    if (event.type !== "text_delta" && event.type !== "tool_call" && event.type !== "tool_result") return;
    const waiting = this.steerAfterTool;
    if (!waiting) {
      this.part = foldContent(this.part, event);
      return;
    }
    waiting.blocks = foldContent(waiting.blocks, event);
    if (!hasOpenTool(waiting.blocks)) this.releaseSteer();
  }

  private steered(content: readonly ContentBlock[], previous: string, show: boolean): void {
    const text = content.map((b) => (b.type === "text" ? b.text : "")).join("");
    if (this.steerAfterTool) {
      // A second steer while the tool still runs waits behind the first.
      this.steerAfterTool.steers.push({ text, show });
      return;
    }
    const blocks = this.part;
    this.part = [];
    if (previous === "running_tool") this.steerAfterTool = { blocks, steers: [{ text, show }] };
    else if (show) this.line(steeredLines(text));
  }

  private printEvent(event: ChatEvent): void {
    switch (event.type) {
      case "turn_start": {
        const text = event.user_message.content.map((b) => (b.type === "text" ? b.text : "")).join("");
        // 🎤 as `chat show` words it: the text is a voice note's transcript.
        if (this.showUser) this.line(`── you${event.user_message.voice ? " · 🎤 voice note" : ""}${event.user_message.schedule ? ` · ⏰ ${event.user_message.schedule.name}` : ""}\n${text}\n── assistant`);
        return;
      }
      case "text_delta": {
        const text = clean(event.text);
        const nl = this.held.length ? text.indexOf("\n") : -1;
        if (nl < 0) {
          this.out.write(text);
          this.midLine = !text.endsWith("\n");
          return;
        }
        // The held notices go right after the line they would have broken.
        this.out.write(text.slice(0, nl + 1));
        this.midLine = false;
        this.flushHeld();
        const rest = text.slice(nl + 1);
        this.out.write(rest);
        this.midLine = rest.length > 0 && !rest.endsWith("\n");
        return;
      }
      case "notice":
        // Coffer's own one line (a lost agent session restarted with the conversation so far).
        this.line(`  ⓘ ${clean(event.text)}`);
        return;
      case "tool_call":
        this.line(`  ⚙ ${humanToolName(event.tool_name)} ${summarise(event.tool_input)}`);
        return;
      case "tool_result":
        this.line(`  ${event.error ? "✗" : "✓"} ${humanToolName(event.tool_name)}${event.error ? `: ${summarise(event.error)}` : ""}`);
        return;
      case "turn_done": {
        this.releaseSteer();
        const tokens = event.prompt_tokens !== null || event.completion_tokens !== null
          ? ` · ${event.prompt_tokens ?? "?"} in / ${event.completion_tokens ?? "?"} out`
          : "";
        this.line(`── ${event.stop_reason === "interrupted" ? "interrupted" : "done"}${event.model ? ` · ${event.model}` : ""}${tokens}`);
        return;
      }
      case "retrying":
        this.line(`  ↻ ${retryingLabel(event)}${event.delay_ms ? ` · next try in ${Math.max(1, Math.round(event.delay_ms / 1000))} s` : ""}`);
        return;
      case "turn_error":
        this.releaseSteer();
        this.line(`── failed: ${event.code}: ${event.message}`);
        return;
      case "queue_changed":
        if (event.hold) this.notice(`── ${holdLabel(event.hold)} · ${event.pending.length} pending (\`${cmd("chat queue <id> --resume")}\` runs it now)`);
        else if (event.pending.length || event.paused) {
          const edited = event.pending.filter((p) => p.editing).length;
          this.notice(`── queue: ${event.pending.length} pending${event.paused ? " (paused)" : ""}${edited ? ` (${edited} being edited: the queue waits for it)` : ""}`);
        }
        return;
      case "resync":
        this.line(`── (reconnected; some events were missed — use \`${cmd("chat show")}\` for the full thread)`);
        return;
      case "conversation_deleted":
        this.line("── conversation deleted");
        return;
      case "question":
        this.line(`── waiting for you: the agent asks (question ${event.question_id})`);
        event.questions.forEach((q, i) => {
          const kind = [q.multi_select ? "choose any" : "choose one", ...(q.allow_free_text ? ["or write your own"] : [])].join(", ");
          this.line(`${event.questions.length > 1 ? `Q${i + 1}. ` : ""}${q.header ? `[${q.header}] ` : ""}${q.text} (${kind})`);
          q.options.forEach((o, n) => this.line(`  ${n + 1}. ${o.label}${o.description ? ` — ${o.description}` : ""}`));
        });
        this.line(`   answer: ${cmd("chat answer")} <conversation> ${event.question_id} --option <n>${event.questions.some((q) => q.allow_free_text) ? " [--text …]" : ""}`);
        return;
      case "question_answered":
        this.line(
          event.answers
            ? `── ${answeredFromText(event.answers, event.by)}`
            : "── question cancelled",
        );
        return;
      case "steered":
        this.steered(event.user_message.content, event.previous_state, true);
        return;
      case "file_shared":
        this.line(attachmentLine(event.caption ? { ...event.attachment, caption: event.caption } : event.attachment));
        return;
      case "steer_fallback":
        this.notice(`── could not steer (${event.reason}): queued next instead`);
        return;
    }
  }

  /** The reply has its tool results, or the turn ended first: the steered messages were taken all the same. */
  private releaseSteer(): void {
    const waiting = this.steerAfterTool;
    this.steerAfterTool = null;
    for (const steer of waiting?.steers ?? []) if (steer.show) this.line(steeredLines(steer.text));
  }

  /** A notice between lines: now, or held until the streamed line ends. */
  private notice(text: string): void {
    if (this.midLine) this.held.push(text);
    else this.line(text);
  }

  private flushHeld(): void {
    for (const text of this.held.splice(0)) this.out.write(`${clean(text)}\n`);
  }

  private line(text: string): void {
    if (this.midLine) this.out.write("\n");
    this.midLine = false;
    this.flushHeld();
    this.out.write(`${clean(text)}\n`);
  }
}

function steeredLines(text: string): string {
  return `── you (steered into the running turn)\n${text}\n── assistant`;
}
