import { ROUTES } from "@coffer/protocol";
import type { Command } from "commander";
import { CliError, type DaemonClient } from "../client.js";
import { confirm } from "../confirm.js";
import { resolveConversationId } from "../conversation-id.js";
import { CONVERSATION_HEADER, conversationLine, matchLine, messageBlock, print, printJson } from "../output.js";

/** The shortest id prefix `chat rm` accepts. */
const MIN_RM_PREFIX = 4;

/** How many messages a conversation holds, paging back through them (1,000 a request). */
async function countMessages(client: DaemonClient, id: string): Promise<number> {
  let count = 0;
  let before: number | undefined;
  for (;;) {
    const page = await client.call(ROUTES.listMessages, { params: { id }, query: { limit: "1000", ...(before === undefined ? {} : { before: String(before) }) } });
    count += page.messages.length;
    if (!page.has_more || page.messages.length === 0) return count;
    before = page.messages[0]!.seq;
  }
}

export function registerChatManage(chat: Command, client: () => DaemonClient): void {
  chat
    .command("ls")
    .description("list conversations, newest first")
    .option("--archived", "show archived conversations instead of active ones")
    .option("-s, --search <q>", "only conversations whose title or messages match")
    .option("-n, --limit <n>", "how many (default 50)", "50")
    .option("--json", "print JSON")
    .action(async (opts: { archived?: boolean; search?: string; limit: string; json?: boolean }) => {
      const query = { limit: opts.limit, archived: opts.archived ? "true" : undefined, q: opts.search };
      const page = await client().call(ROUTES.listConversations, { query });
      if (opts.json) return printJson(page);
      if (!page.conversations.length) return void print(opts.search ? "no matches\n" : "no conversations\n");
      print(`${CONVERSATION_HEADER}\n`);
      for (const c of page.conversations) {
        print(`${conversationLine(c)}\n`);
        if (c.match) print(`${matchLine(c.match)}\n`);
      }
    });

  chat
    .command("new")
    .description("start a conversation with an agent")
    .requiredOption("-a, --agent <key>", "agent key (see `coffer agents`)")
    .option("--cwd <dir>", "working directory (default: the daemon's workspace, ~/coffer-workspace)")
    .option("-m, --model <model>", "the agent's model for this conversation (default: the agent's own)")
    .option("-t, --title <title>", "a title (default: from the first message)")
    .option("--json", "print JSON")
    .action(async (opts: { agent: string; cwd?: string; model?: string; title?: string; json?: boolean }) => {
      const agent_config: Record<string, string> = {};
      if (opts.cwd) agent_config.cwd = opts.cwd;
      if (opts.model) agent_config.model = opts.model;
      const conv = await client().call(ROUTES.createConversation, {
        body: { agent_key: opts.agent, agent_config, ...(opts.title ? { title: opts.title } : {}) },
      });
      if (opts.json) return printJson(conv);
      print(`${conv.id}\n`);
    });

  chat
    .command("show <id>")
    .description("a conversation and its messages")
    .option("-n, --limit <n>", "how many of the latest messages (default 200)", "200")
    .option("--json", "print JSON")
    .action(async (given: string, opts: { limit: string; json?: boolean }) => {
      const id = await resolveConversationId(client(), given);
      const c = client();
      const conv = await c.call(ROUTES.getConversation, { params: { id } });
      const page = await c.call(ROUTES.listMessages, { params: { id }, query: { limit: opts.limit } });
      if (opts.json) return printJson({ conversation: conv, ...page });
      print(`${conversationLine(conv)}\n`);
      if (page.has_more) print(`(older messages not shown; use --limit)\n`);
      for (const m of page.messages) print(`${messageBlock(m)}\n`);
    });

  chat
    .command("rename <id> <title>")
    .description("rename a conversation")
    .action(async (given: string, title: string) => {
      const id = await resolveConversationId(client(), given);
      const conv = await client().call(ROUTES.renameConversation, { params: { id }, body: { title } });
      print(`renamed: ${conv.title}\n`);
    });

  for (const [name, route, done] of [
    ["archive", ROUTES.archiveConversation, "archived"],
    ["restore", ROUTES.unarchiveConversation, "restored"],
  ] as const) {
    chat
      .command(`${name} <id>`)
      .description(name === "archive" ? "move a conversation to the archive" : "bring a conversation back from the archive")
      .action(async (given: string) => {
      const id = await resolveConversationId(client(), given);
        await client().call(route, { params: { id } });
        print(`${done}\n`);
      });
  }

  chat
    .command("rm <id>")
    .description(`delete a conversation and its messages (a running turn is discarded); asks first on a terminal; the id or at least its first ${MIN_RM_PREFIX} characters`)
    .option("-y, --yes", "delete without asking (needed when stdin is not a terminal)")
    .action(async (given: string, opts: { yes?: boolean }) => {
      // Deleting is for good: a prefix of a character or two names whichever conversation happens to match.
      if (given.trim().length < MIN_RM_PREFIX) {
        throw new CliError("USAGE", `"${given}" is too short to delete by: give at least ${MIN_RM_PREFIX} characters of the conversation's id (see \`coffer chat ls\`)`);
      }
      if (!opts.yes && !process.stdin.isTTY) {
        throw new CliError("USAGE", "chat rm deletes for good and there is no terminal to ask on: add --yes to confirm");
      }
      const c = client();
      const id = await resolveConversationId(c, given);
      if (!opts.yes) {
        const conv = await c.call(ROUTES.getConversation, { params: { id } });
        const n = await countMessages(c, id);
        const title = conv.title.replace(/\s+/g, " ").trim() || "(untitled)";
        if (!(await confirm(`Delete conversation “${title}” (${n} message${n === 1 ? "" : "s"})? [y/N] `))) {
          throw new CliError("CANCELLED", "not deleted");
        }
      }
      await c.call(ROUTES.deleteConversation, { params: { id } });
      print("deleted\n");
    });

  chat
    .command("model <id> [model]")
    .description("show, set or clear the agent's model for this conversation")
    .option("--clear", "inherit the agent's default model again")
    .option("--json", "print JSON")
    .action(async (given: string, model: string | undefined, opts: { clear?: boolean; json?: boolean }) => {
      const id = await resolveConversationId(client(), given);
      if (model !== undefined && opts.clear) throw new CliError("USAGE", "give a model or --clear, not both");
      const config =
        model === undefined && !opts.clear
          ? await client().call(ROUTES.getAgentConfig, { params: { id } })
          : await client().call(ROUTES.patchAgentConfig, { params: { id }, body: { model: opts.clear ? null : model } });
      if (opts.json) return printJson(config);
      print(`model: ${config.model ?? "(agent default)"}\ncwd:   ${config.cwd ?? "(workspace)"}\n`);
    });
}
