import { randomUUID } from "node:crypto";
import { holdLabel, isTerminalEvent, ROUTES, type ChatEvent } from "@coffer/protocol";
import type { Command } from "commander";
import { CliError, type DaemonClient } from "../client.js";
import { print, printErr, printJson } from "../output.js";
import { TurnPrinter } from "../turn-printer.js";

export function registerChatTurns(chat: Command, client: () => DaemonClient): void {
  chat
    .command("send <id> <text...>")
    .description("send a message and print the reply as it streams (queues behind a running turn)")
    .option("--json", "print each event as a JSON line")
    .option("--no-wait", "return once the message is accepted")
    .action(async (id: string, words: string[], opts: { json?: boolean; wait: boolean }) => {
      const c = client();
      const text = words.join(" ");
      const clientId = randomUUID();
      if (!opts.wait) {
        const ack = await c.call(ROUTES.sendMessage, { params: { id }, body: { text, client_id: clientId } });
        return opts.json ? printJson(ack) : void print(ack.queued ? "queued\n" : "started\n");
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
          if (!mine && event.type !== "conversation_deleted") return;
          if (opts.json) print(`${JSON.stringify({ id: frame.id, ...event })}\n`);
          else printer.print(event);
          if (isTerminalEvent(event) || event.type === "conversation_deleted") finish(event);
        },
        () => finish(null),
      );
      const ack = await c.call(ROUTES.sendMessage, { params: { id }, body: { text, client_id: clientId } });
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
    .action(async (id: string, opts: { json?: boolean }) => {
      const printer = new TurnPrinter();
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
      });
    });

  chat
    .command("stop <id>")
    .description("stop the running turn (its partial reply is kept; the queue pauses)")
    .action(async (id: string) => {
      await client().call(ROUTES.interruptTurn, { params: { id } });
      print("stopped\n");
    });

  chat
    .command("queue <id>")
    .description("show or change the pending queue (positions start at 1)")
    .option("--drop <n>", "remove the message at position n")
    .option("--move <from_to...>", "move the message at position <from> to <to>")
    .option("--resume", "unpause the queue and run its head when idle")
    .option("--json", "print JSON")
    .action(async (id: string, opts: { drop?: string; move?: string[]; resume?: boolean; json?: boolean }) => {
      const c = client();
      let queue = await c.call(ROUTES.getPending, { params: { id } });
      const items = queue.pending.map((p) => ({ id: p.id, text: p.text }));
      const position = (raw: string) => {
        const n = Number(raw);
        if (!Number.isInteger(n) || n < 1 || n > items.length) {
          throw new CliError("USAGE", `position must be 1..${items.length}, got "${raw}"`);
        }
        return n - 1;
      };
      let changed = false;
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
          body: { pending: items.map(({ id }) => ({ id })), resume: Boolean(opts.resume), seen },
        });
      }
      if (opts.json) return printJson(queue);
      if (!queue.pending.length) print(`queue empty${queue.paused ? " (paused)" : ""}\n`);
      else {
        const why = queue.hold ? holdLabel(queue.hold) : "paused";
        print(`${queue.pending.length} pending${queue.paused ? ` (${why}: \`coffer chat queue <id> --resume\`)` : ""}\n`);
        queue.pending.forEach((p, i) => print(`${String(i + 1).padStart(3)}. ${p.text.replace(/\s+/g, " ").slice(0, 100)}\n`));
      }
    });
}
