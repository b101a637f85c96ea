import { randomUUID } from "node:crypto";
import { readFileSync, statSync } from "node:fs";
import { basename } from "node:path";
import { mediaTypeOf } from "../media-types.js";
import { editingNote, holdLabel, isTerminalEvent, laterMarkWords, parseDuration, parseLaterWhen, ROUTES, willSendWords, type ChatEvent, type ConversationListEvent, type OpenQuestionOut, type Question, type QuestionAnswer } from "@coffer/protocol";
import type { Command } from "commander";
import { CliError, type DaemonClient } from "../client.js";
import { resolveConversationId } from "../conversation-id.js";
import { print, printErr, printJson } from "../output.js";
import { TurnPrinter } from "../turn-printer.js";
import { cmd } from "../hints.js";

export function registerChatTurns(chat: Command, client: () => DaemonClient): void {
  chat
    .command("send <id> <text...>")
    .description("send a message and print the reply as it streams (queues behind a running turn)")
    .option("--steer", "put it into the running turn instead of queueing it (queued next when the agent cannot take it)")
    .option("--attach <file>", "attach a file (repeatable); each is uploaded before the message is sent", (file: string, all: string[]) => [...all, file], [] as string[])
    .option("--at <time>", "send later, at this local time: 07:00 (the next one), 7pm, \"tomorrow 09:00\", or an ISO time")
    .option("--in <duration>", "send later, after this long: 2h, 30m, 1h30m")
    .option("--at-reset", "send when the agent's reached plan limit resets (none reached: now)")
    .option("--json", "print each event as a JSON line")
    .option("--no-wait", "return once the message is accepted")
    .action(async (given: string, words: string[], opts: { json?: boolean; wait: boolean; steer?: boolean; attach: string[]; at?: string; in?: string; atReset?: boolean }) => {
      const later = laterOf(opts);
      const id = await resolveConversationId(client(), given);
      const c = client();
      const text = words.join(" ");
      const clientId = randomUUID();
      const attachmentIds = await uploadAll(c, opts.attach);
      const body = {
        text,
        client_id: clientId,
        delivery: opts.steer ? ("steer" as const) : ("queue" as const),
        ...(attachmentIds.length ? { attachment_ids: attachmentIds } : {}),
        ...later,
      };
      // A message sent later is not waited for: it is answered when its time comes (chat watch shows it).
      if (!opts.wait || later.send_at || later.send_when) {
        const ack = await c.call(ROUTES.sendMessage, { params: { id }, body });
        if (opts.json) return printJson(ack);
        if (ack.later) return void print(`${willSendWords(ack.later, LOCAL_ZONE)} (queued; \`${cmd("chat queue <id>")}\` shows it)\n`);
        return void print(ack.steered ? "steered\n" : ack.queued ? "queued\n" : "started\n");
      }
      const printer = new TurnPrinter(process.stdout, false);
      let mine = false;
      let finish!: (outcome: ChatEvent | null) => void;
      const finished = new Promise<ChatEvent | null>((r) => (finish = r));
      // Attach first, so no event of our turn can slip past before we listen.
      const stream = await c.stream(
        ROUTES.conversationEvents,
        { id },
        (frame) => {
          const event = JSON.parse(frame.data) as ChatEvent;
          if (event.type === "turn_start") mine = event.client_id === clientId;
          // Steered: the running turn is ours from our message on (a fallback shows, then its own turn_start).
          if (opts.steer && event.type === "steered") mine = event.user_message.content.some((b) => b.type === "text" && b.text === text);
          if (opts.steer && event.type === "steer_fallback" && event.text === text && !opts.json) printer.print(event);
          if (!mine && event.type !== "conversation_deleted") return printer.observe(event);
          if (opts.json) print(`${JSON.stringify({ id: frame.id, ...event })}\n`);
          else printer.print(event);
          if (isTerminalEvent(event) || event.type === "conversation_deleted") finish(event);
        },
        () => finish(null),
      );
      const ack = await c.call(ROUTES.sendMessage, { params: { id }, body });
      if (ack.queued && !opts.json) printErr("(queued behind the running turn)\n");
      const outcome = await finished;
      stream.close();
      if (outcome === null) throw new CliError("DAEMON_UNREACHABLE", "the daemon closed the stream before the turn ended");
      if (outcome.type === "turn_error") throw new CliError("TURN_FAILED", `${outcome.code}: ${outcome.message}`);
      if (outcome.type === "conversation_deleted") throw new CliError("CONVERSATION_NOT_FOUND", "the conversation was deleted");
    });

  chat
    .command("watch <id>")
    .description("follow a conversation live: every turn, from any surface (Ctrl-C to stop)")
    .option("--json", "print each event as a JSON line")
    .action(async (given: string, opts: { json?: boolean }) => {
      const id = await resolveConversationId(client(), given);
      const printer = new TurnPrinter();
      // Questions find the owner (issue 27): every open one, from any conversation, on start and as one opens.
      const questions = await watchOpenQuestions(client(), id, opts.json === true);
      await new Promise<void>((resolve, reject) => {
        client()
          .stream(
            ROUTES.conversationEvents,
            { id },
            (frame) => {
              const event = JSON.parse(frame.data) as ChatEvent;
              if (opts.json) print(`${JSON.stringify({ id: frame.id, ...event })}\n`);
              else printer.print(event);
            },
            resolve,
          )
          .catch(reject);
      }).finally(() => questions.close());
    });

  chat
    .command("answer <id> <question_id>")
    .description("answer the agent's question: options by number as `chat watch` lists them (first answer wins)")
    .option("--option <n...>", "the option(s) chosen; with several questions, <q>:<n> (e.g. 1:2 2:1)")
    .option("--text <text...>", "your own words; with several questions, <q>:<text>")
    .option("--json", "print JSON")
    .action(async (given: string, qid: string, opts: { option?: string[]; text?: string[]; json?: boolean }) => {
      const id = await resolveConversationId(client(), given);
      const c = client();
      const asked = (await c.call(ROUTES.listQuestions, { params: { id } })).questions.find((q) => q.question_id === qid);
      if (!asked) throw new CliError("QUESTION_NOT_FOUND", `no question ${qid} in this conversation's latest turn`);
      const answers = buildAnswers(asked.questions, opts.option ?? [], opts.text ?? []);
      await c.call(ROUTES.answerQuestion, { params: { id, qid }, body: { answers, by: "cli" } });
      if (opts.json) return printJson({ question_id: qid, answers });
      print("answered\n");
    });

  chat
    .command("stop <id>")
    .description("stop the running turn (its partial reply is kept; the queue pauses)")
    .action(async (given: string) => {
      const id = await resolveConversationId(client(), given);
      await client().call(ROUTES.interruptTurn, { params: { id } });
      print("stopped\n");
    });

  chat
    .command("queue <id>")
    .description("show or change the pending queue (positions start at 1)")
    .option("--drop <n>", "remove the message at position n")
    .option("--move <from_to...>", "move the message at position <from> to <to>")
    .option("--resume", "unpause the queue and run its head when idle")
    .option("--send-now <n>", "steer the message at position n into the running turn (or run it now when idle)")
    .option("--time <n_when...>", "set the send-later time of the message at position n: <n> 07:00 | <n> in 2h | <n> reset | <n> none (clears it)")
    .option("--json", "print JSON")
    .action(async (given: string, opts: { drop?: string; move?: string[]; resume?: boolean; sendNow?: string; time?: string[]; json?: boolean }) => {
      const id = await resolveConversationId(client(), given);
      const c = client();
      let queue = await c.call(ROUTES.getPending, { params: { id } });
      if (opts.sendNow !== undefined) {
        const n = Number(opts.sendNow);
        const row = Number.isInteger(n) ? queue.pending[n - 1] : undefined;
        if (!row) throw new CliError("USAGE", `position must be 1..${queue.pending.length}, got "${opts.sendNow}"`);
        const ack = await c.call(ROUTES.steerPending, { params: { id, pid: row.id } });
        if (opts.json) return printJson(ack);
        print(ack.steered ? "steered into the running turn\n" : ack.queued ? "the agent could not take it: it is next in the queue\n" : "started\n");
        return;
      }
      const items: { id: string; text: string; send_at?: string | null; send_when?: "limit_reset" }[] = queue.pending.map((p) => ({ id: p.id, text: p.text }));
      const position = (raw: string) => {
        const n = Number(raw);
        if (!Number.isInteger(n) || n < 1 || n > items.length) {
          throw new CliError("USAGE", `position must be 1..${items.length}, got "${raw}"`);
        }
        return n - 1;
      };
      let changed = false;
      if (opts.time !== undefined) {
        const [n, ...when] = opts.time;
        const item = items[position(n ?? "")]!;
        const none = when.length === 1 && when[0]!.toLowerCase() === "none";
        Object.assign(item, none ? { send_at: null } : laterOf({ at: when.join(" ") }));
        changed = true;
      }
      if (opts.drop !== undefined) {
        items.splice(position(opts.drop), 1);
        changed = true;
      }
      if (opts.move !== undefined) {
        if (opts.move.length !== 2) throw new CliError("USAGE", "--move takes two positions: <from> <to>");
        const [item] = items.splice(position(opts.move[0]!), 1);
        items.splice(Math.min(Number(opts.move[1]) - 1, items.length), 0, item!);
        changed = true;
      }
      // Dropping or moving leaves a paused queue paused; only --resume runs it.
      // Ids only: the server keeps each text as stored (the request stays small, and a message that
      // started meanwhile is not queued again). `seen`: a message another surface queued since we
      // read the queue is not ours to drop.
      if (changed || opts.resume) {
        const seen = queue.pending.map((p) => p.id);
        queue = await c.call(ROUTES.setPending, {
          params: { id },
          body: { pending: items.map(({ id, send_at, send_when }) => ({ id, ...(send_at !== undefined ? { send_at } : {}), ...(send_when ? { send_when } : {}) })), resume: Boolean(opts.resume), seen },
        });
      }
      if (opts.json) return printJson(queue);
      if (!queue.pending.length) print(`queue empty${queue.paused ? " (paused)" : ""}\n`);
      else {
        const why = queue.hold ? holdLabel(queue.hold) : "paused";
        print(`${queue.pending.length} pending${queue.paused ? ` (${why}: \`${cmd("chat queue <id> --resume")}\`)` : ""}\n`);
        // A message someone is editing holds everything behind it (issue 22 B): say so on its line.
        queue.pending.forEach((p, i) =>
          print(`${String(i + 1).padStart(3)}. ${p.text.replace(/\s+/g, " ").slice(0, 100)}${p.later ? `  [${laterMarkWords(p.later, LOCAL_ZONE)}]` : ""}${p.editing ? `  [${editingNote(p.editing)}]` : ""}\n`),
        );
      }
    });
}

/** `--option 2` / `--option 1:2 2:1` and `--text …` / `--text 2:…` → one answer per question, in order. */
export function buildAnswers(questions: readonly Question[], options: readonly string[], texts: readonly string[]): QuestionAnswer[] {
  const many = questions.length > 1;
  const answers: QuestionAnswer[] = questions.map(() => ({ selected: [] }));
  const target = (raw: string): { q: number; rest: string } => {
    const m = /^(\d+):(.*)$/s.exec(raw);
    if (many && !m) throw new CliError("USAGE", `there are ${questions.length} questions: prefix with the question number, e.g. 1:${raw}`);
    const q = m && many ? Number(m[1]) - 1 : 0;
    if (q < 0 || q >= questions.length) throw new CliError("USAGE", `question number must be 1..${questions.length}`);
    return { q, rest: m && many ? m[2]! : raw };
  };
  for (const raw of options) {
    const { q, rest } = target(raw);
    const n = Number(rest);
    const opts = questions[q]!.options;
    if (!Number.isInteger(n) || n < 1 || n > opts.length) throw new CliError("USAGE", `option must be 1..${opts.length}, got "${rest}"`);
    answers[q] = { ...answers[q]!, selected: [...answers[q]!.selected, opts[n - 1]!.label] };
  }
  if (texts.length) {
    const joined = many ? texts : [texts.join(" ")];
    for (const raw of joined) {
      const { q, rest } = target(raw);
      answers[q] = { ...answers[q]!, text: rest };
    }
  }
  return answers;
}

/**
 * Uploads each --attach file in order. First every file is sized against the daemon's cap
 * (GET /attachments/limits): one too big, or one that cannot be read, stops the send with one
 * line before any byte is uploaded (a 60 MB file is never read into memory or sent).
 */
async function uploadAll(c: DaemonClient, files: readonly string[]): Promise<string[]> {
  if (!files.length) return [];
  const sizes = files.map((file) => {
    try {
      return statSync(file).size;
    } catch (err) {
      throw new CliError("USAGE", `cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
    }
  });
  const { max_bytes: cap } = await c.call(ROUTES.attachmentLimits, {});
  const over = sizes.findIndex((size) => size > cap);
  if (over >= 0) {
    const mb = (n: number) => `${(n / (1024 * 1024)).toFixed(1)} MB`;
    throw new CliError("ATTACHMENT_TOO_LARGE", `${basename(files[over]!)} is ${mb(sizes[over]!)}; the daemon takes files up to ${mb(cap)} (COFFER_ATTACHMENT_MAX_MB) — nothing was sent`);
  }
  const ids: string[] = [];
  for (const file of files) {
    let bytes: Buffer;
    try {
      bytes = readFileSync(file);
    } catch (err) {
      throw new CliError("USAGE", `cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
    }
    ids.push((await c.uploadAttachment(basename(file), mediaTypeOf(file), bytes)).id);
  }
  return ids;
}

/**
 * `chat watch`'s line per open question: the ones open when it starts (any conversation), then
 * each one that opens in another conversation (the watched one's questions print in full with
 * its turn). Each line says how to answer. Returns the list stream to close.
 */
async function watchOpenQuestions(c: DaemonClient, watched: string, json: boolean): Promise<{ close(): void }> {
  const shown = new Set<string>();
  const show = (q: OpenQuestionOut) => {
    if (shown.has(q.question_id)) return;
    shown.add(q.question_id);
    if (json) return void print(`${JSON.stringify({ type: "open_question", ...q })}\n`);
    print(`${openQuestionLine(q)}\n`);
  };
  const refresh = async () => {
    for (const q of (await c.call(ROUTES.listOpenQuestions, {})).questions) show(q);
  };
  // Listening first, then listing: a question that opens in between is on one or the other.
  const stream = await c.stream(
    ROUTES.conversationListEvents,
    {},
    (frame) => {
      const event = JSON.parse(frame.data) as ConversationListEvent;
      if (event.type !== "conversation_alert" || event.kind !== "question_asked" || event.conversation_id === watched) return;
      refresh().catch(() => undefined); // the list is a convenience: the watched turn goes on regardless
    },
    () => undefined,
  );
  await refresh();
  return stream;
}

function openQuestionLine(q: OpenQuestionOut): string {
  const first = q.questions[0];
  const text = (first?.text ?? "").replace(/\s+/g, " ").trim();
  const more = q.questions.length > 1 ? ` (+${q.questions.length - 1} more)` : "";
  return `❓ open question in “${q.title?.trim() || "Untitled conversation"}”: ${text}${more} — answer: ${cmd("chat answer")} ${q.conversation_id} ${q.question_id} --option <n>`;
}

/** The CLI reads and shows send-later times in the machine's own zone (the terminal's owner is here). */
const LOCAL_ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";

/** `--at 07:00` / `--at "tomorrow 09:00"` / `--at <ISO>`, `--in 2h`, `--at-reset` (or `reset`) → the send's send_at / send_when. */
export function laterOf(opts: { at?: string; in?: string; atReset?: boolean }, now = Date.now(), zone = LOCAL_ZONE): { send_at?: string; send_when?: "limit_reset" } {
  const given = [opts.at !== undefined, opts.in !== undefined, opts.atReset === true].filter(Boolean).length;
  if (given > 1) throw new CliError("USAGE", "use one of --at, --in and --at-reset");
  if (opts.atReset) return { send_when: "limit_reset" };
  if (opts.in !== undefined) {
    const ms = parseDuration(opts.in.replace(/\s+/g, ""));
    if (!ms) throw new CliError("USAGE", `--in takes a duration such as 2h, 30m or 1h30m, got "${opts.in}"`);
    return { send_at: new Date(now + ms).toISOString() };
  }
  if (opts.at === undefined) return {};
  const words = opts.at.trim().split(/\s+/);
  const parsed = parseLaterWhen(words, now, zone);
  if (parsed && parsed.used === words.length) return "reset" in parsed.when ? { send_when: "limit_reset" } : { send_at: new Date(parsed.when.at).toISOString() };
  const iso = Date.parse(opts.at);
  if (/^\d{4}-\d{2}-\d{2}T/.test(opts.at) && Number.isFinite(iso)) return { send_at: new Date(iso).toISOString() };
  throw new CliError("USAGE", `--at takes 07:00, 7pm, "tomorrow 09:00", in 2h, reset or an ISO time, got "${opts.at}"`);
}
