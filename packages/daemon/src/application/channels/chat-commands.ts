import type { BotCommand } from "./ports.js";

/** The commands a channel answers itself; anything else (unknown /x too) goes to the agent. */
export const CHAT_COMMANDS = [
  { command: "new", description: "Start a fresh conversation (optionally: /new <agent>)" },
  { command: "stop", description: "Stop the running reply and hold the queue" },
  { command: "status", description: "This conversation (agent, model, state, queue) and every open question" },
  { command: "model", description: "Show or set the model: /model <name> or /model default" },
  { command: "list", description: "Your recent conversations, from any screen" },
  { command: "open", description: "Continue a conversation from /list: /open <n>" },
  { command: "later", description: "Send later: /later 07:00 <text>, /later in 2h <text>, /later reset <text>; /later lists" },
  { command: "schedules", description: "Your schedules: /schedules, then pause, resume, run or delete <n>" },
  { command: "help", description: "What this bot understands" },
] as const satisfies readonly BotCommand[];

export type ChatCommandName = (typeof CHAT_COMMANDS)[number]["command"] | "start";

export interface ParsedCommand {
  readonly name: ChatCommandName;
  readonly arg: string;
}

const KNOWN = new Set<string>([...CHAT_COMMANDS.map((c) => c.command), "start"]);

/** `/stop`, `/stop@my_bot`, `/model  gpt-5 ` → a command; anything else → null (a message). */
export function parseCommand(text: string): ParsedCommand | null {
  const m = /^\/([a-z]+)(?:@\w+)?(?:\s+([\s\S]*))?$/i.exec(text.trim());
  if (!m) return null;
  const name = m[1]!.toLowerCase();
  if (!KNOWN.has(name)) return null;
  return { name: name as ChatCommandName, arg: (m[2] ?? "").trim() };
}

export const HELP_TEXT = [
  "Write anything to talk to your agent; messages sent while it works wait in order.",
  "",
  ...CHAT_COMMANDS.map((c) => `/${c.command} — ${c.description}`),
  "",
  "The desktop page shows the same conversation live and can stop it or write into it.",
].join("\n");
