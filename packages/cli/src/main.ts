#!/usr/bin/env node
import { Command, CommanderError } from "commander";
import { CliError, connect, DaemonClient, exitCodeFor, isKnownCode } from "./client.js";
import { registerAgents } from "./commands/agents.js";
import { registerAttachments } from "./commands/attachments.js";
import { registerAudit } from "./commands/audit.js";
import { registerBackup } from "./commands/backup.js";
import { registerChannels } from "./commands/channels.js";
import { registerChatManage } from "./commands/chat-manage.js";
import { registerChatTurns } from "./commands/chat-turns.js";
import { registerCredentials } from "./commands/credentials.js";
import { registerBrief } from "./commands/brief.js";
import { registerSchedules } from "./commands/schedules.js";
import { registerSettings } from "./commands/settings.js";
import { registerKnowledge } from "./commands/knowledge.js";
import { registerMcp } from "./commands/mcp.js";
import { registerOpen } from "./commands/open.js";
import { registerMemory } from "./commands/memory.js";
import { registerSkills } from "./commands/skills.js";
import { registerStart } from "./commands/start.js";
import { registerStats } from "./commands/stats.js";
import { printErr } from "./output.js";
import { cliCommand } from "./hints.js";

// Named as the owner runs it here (`npm run coffer --` from a clone), so usage lines work when copied.
const program = new Command(cliCommand())
  .description("Coffer: your AI assets and coding agents, on your machine")
  .option("--home <dir>", "data dir (default $COFFER_HOME or ~/.coffer)")
  .option("--url <url>", "daemon URL (default from <data dir>/daemon.json or $COFFER_URL)")
  .option("--token <token>", "daemon token (visible to other users in the process list: prefer $COFFER_TOKEN or <data dir>/token, the default)")
  .showHelpAfterError()
  .exitOverride();

const client = () => new DaemonClient(connect(program.opts()));

registerStart(program);
registerOpen(program, client);
registerAgents(program, client);
registerAudit(program, client);
const chat = program.command("chat").description("conversations with your agents");
registerChatManage(chat, client);
registerChatTurns(chat, client);
registerSkills(program, client);
registerMemory(program, client);
registerKnowledge(program, client);
registerMcp(program, client);
registerChannels(program, client);
registerSchedules(program, client);
registerBrief(program, client);
registerCredentials(program, client);
registerSettings(program, client);
registerStats(program, client);
registerAttachments(program, client);
registerBackup(program);

try {
  await program.parseAsync(process.argv);
} catch (err) {
  if (err instanceof CommanderError) {
    process.exit(err.exitCode === 0 ? 0 : 2);
  }
  if (err instanceof CliError) {
    printErr(`coffer: ${err.message} [${err.code}]\n`);
    process.exit(exitCodeFor(err.code));
  }
  // `coffer start` refusals (another daemon on this data dir, an unsafe file) carry a stable code.
  const code = err instanceof Error ? (err as { code?: unknown }).code : undefined;
  if (typeof code === "string" && isKnownCode(code) && exitCodeFor(code) !== 1) {
    printErr(`coffer: ${err instanceof Error ? err.message : String(err)} [${code}]\n`);
    process.exit(exitCodeFor(code));
  }
  printErr(`coffer: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
}
