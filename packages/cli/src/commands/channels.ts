import { ChannelCreate, ROUTES, type ChannelOut, type PairingCodeOut } from "@coffer/protocol";
import type { Command } from "commander";
import { CliError, type DaemonClient } from "../client.js";
import { print, printJson, printTerminalArt } from "../output.js";
import { cmd } from "../hints.js";

interface AddOptions {
  tokenRef?: string;
  agent?: string;
  cwd?: string;
  model?: string;
  kind?: string;
  json?: boolean;
}

/** `coffer channel …`: IM channels (Telegram bots) that let the owner talk to agents from a phone. */
export function registerChannels(program: Command, client: () => DaemonClient): void {
  const channel = program.command("channel").description("IM channels (Telegram bots): talk to your agents from your phone");

  channel
    .command("add <name>")
    .description("add a channel; its bot token is a credential (store it first with `coffer cred set <ref>`) and is checked before anything is stored")
    .option("--token-ref <ref>", "the credential ref holding the bot token (required)")
    .option("-a, --agent <key>", "the agent new conversations from this channel run (required; see `coffer agents`)")
    .option("--cwd <dir>", "absolute working directory of new conversations (default: the daemon's workspace, ~/coffer-workspace)")
    .option("-m, --model <model>", "the model of new conversations (default: the agent's own)")
    .option("--kind <kind>", "the platform, one the daemon registered (`GET /channel-kinds`); default: its only one")
    .option("--json", "print JSON")
    .action(async (name: string, opts: AddOptions) => {
      // Checked before the daemon is reached, so a typo costs no round trip to the platform.
      const body = createBody(name, opts);
      const c = client();
      // No --kind: the daemon's only platform (with several, the owner names one).
      const kind = body.kind || (await onlyKind(c));
      const created = await c.call(ROUTES.createChannel, { body: { ...body, kind } });
      if (opts.json) return printJson(created);
      print(`${channelBlock(created)}\n`);
      print(`\nPair your phone: ${cmd(`channel pair ${created.name}`)}\n`);
    });

  channel
    .command("ls")
    .description("channels with their bot, state, owner and outbox")
    .option("--json", "print JSON")
    .action(async (opts: { json?: boolean }) => {
      const out = await client().call(ROUTES.listChannels);
      if (opts.json) return printJson(out);
      if (!out.channels.length) return print(`no channels (add one with \`${cmd("channel add")}\`)\n`);
      print(table(out.channels));
    });

  /** A subcommand on one channel, named by name or id: found first, then `run` with it. */
  const onChannel = (verb: string, about: string, json: string, run: (c: DaemonClient, found: ChannelOut, json: boolean) => Promise<void>) =>
    channel
      .command(`${verb} <channel>`)
      .description(about)
      .option("--json", json)
      .action(async (ref: string, opts: { json?: boolean }) => {
        const c = client();
        await run(c, await resolveChannel(c, ref), opts.json === true);
      });

  onChannel("show", "one channel by name or id: settings, live status, last error and counts", "print JSON", async (c, found, json) => {
    const fresh = await c.call(ROUTES.getChannel, { params: { id: found.id } });
    if (json) return printJson(fresh);
    print(`${channelBlock(fresh)}\n`);
  });

  onChannel(
    "pair",
    "a one-time pairing code (valid 1 hour): whoever sends it to the bot becomes the channel's only owner",
    "print JSON",
    async (c, found, json) => {
      const pairing = await c.call(ROUTES.createPairingCode, { params: { id: found.id } });
      if (json) return printJson(pairing);
      print(pairingText(pairing, found, new Date()));
      // A QR code is for a person looking at a terminal; piped output stays plain text.
      if (pairing.deep_link && process.stdout.isTTY) printTerminalArt(await qrCode(linkUrl(pairing.deep_link)));
    },
  );

  onChannel("rm", "remove a channel; its conversations stay in history, unbound", "print the removed channel as JSON", async (c, found, json) => {
    await c.call(ROUTES.deleteChannel, { params: { id: found.id } });
    if (json) return printJson(found);
    print(`removed ${found.name}\n`);
  });

  for (const [verb, route, done, about] of [
    ["enable", ROUTES.enableChannel, "enabled", "start receiving and delivering"],
    ["disable", ROUTES.disableChannel, "disabled", "stop receiving; undelivered messages wait in the outbox"],
  ] as const) {
    onChannel(verb, `${about} (by name or id)`, "print JSON", async (c, found, json) => {
      const changed = await c.call(route, { params: { id: found.id } });
      if (json) return printJson(changed);
      print(`${done} ${changed.name}; state: ${changed.status.state}\n`);
    });
  }
}

/** Which flag (or argument) each create field comes from, to name it in a usage error. */
const FLAG_OF: Record<string, string> = {
  kind: "--kind",
  name: "<name>",
  bot_token_ref: "--token-ref",
  default_agent: "--agent",
  default_cwd: "--cwd",
  default_model: "--model",
};

/** The kind of `coffer channel add` without --kind: the daemon's one registered platform. */
async function onlyKind(c: DaemonClient): Promise<string> {
  const { kinds } = await c.call(ROUTES.listChannelKinds);
  if (kinds.length === 1) return kinds[0]!.kind;
  throw new CliError("USAGE", `--kind <kind> is required: this daemon speaks ${kinds.map((k) => k.kind).join(", ") || "no platform"}`);
}

function createBody(name: string, opts: AddOptions): ChannelCreate {
  if (!opts.tokenRef) {
    throw new CliError("USAGE", `--token-ref <ref> is required: the credential ref holding the bot token (store the token with \`${cmd("cred set <ref>")}\` first)`);
  }
  if (!opts.agent) throw new CliError("USAGE", `--agent <key> is required: the agent new conversations from this channel run (see \`${cmd("agents")}\`)`);
  const given = {
    // Which kinds exist is the daemon's to say (UNKNOWN_CHANNEL_KIND); a placeholder passes the shape check here.
    kind: opts.kind ?? "pending",
    name,
    bot_token_ref: opts.tokenRef,
    default_agent: opts.agent,
    ...(opts.cwd !== undefined ? { default_cwd: opts.cwd } : {}),
    ...(opts.model !== undefined ? { default_model: opts.model } : {}),
  };
  // The protocol's own schema decides what is valid; the CLI only names the flag at fault.
  const parsed = ChannelCreate.safeParse(given);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = String(issue.path[0] ?? "");
    const value = (given as Record<string, unknown>)[field];
    throw new CliError("USAGE", `invalid ${FLAG_OF[field] ?? field}${typeof value === "string" ? ` "${value}"` : ""}: ${issue.message}`);
  }
  return { ...parsed.data, kind: opts.kind ?? "" };
}

/** A channel by id or name: the routes take the id, people type the name. */
async function resolveChannel(c: DaemonClient, ref: string): Promise<ChannelOut> {
  const { channels } = await c.call(ROUTES.listChannels);
  const found = channels.find((ch) => ch.id === ref) ?? channels.find((ch) => ch.name === ref);
  if (!found) throw new CliError("CHANNEL_NOT_FOUND", `no channel named or with id "${ref}" (see \`${cmd("channel ls")}\`)`);
  return found;
}

const botName = (c: ChannelOut) => (c.bot ? `@${c.bot.username}` : "-");
const ownerName = (c: ChannelOut) => c.owner?.name ?? (c.pairing && c.pairing.state !== "live" ? `not paired (code ${c.pairing.state})` : "not paired");

function table(channels: readonly ChannelOut[]): string {
  const rows = [
    ["NAME", "KIND", "BOT", "STATE", "OWNER", "OUTBOX", "ENABLED"],
    ...channels.map((c) => [c.name, c.kind, botName(c), c.status.state, ownerName(c), String(c.counts.outbox), c.enabled ? "yes" : "no"]),
  ];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows.map((r) => `${r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]!))).join("  ")}\n`).join("");
}

function channelBlock(c: ChannelOut): string {
  const lastError = c.status.last_error
    ? `${c.status.last_error}${c.status.last_error_at ? ` (${localTime(c.status.last_error_at)})` : ""}`
    : "none";
  const lines: [string, string][] = [
    ["name", c.name],
    ["id", c.id],
    ["kind", c.kind],
    ["bot", c.bot ? `@${c.bot.username} (${c.bot.name})` : "not checked yet"],
    ["enabled", c.enabled ? "yes" : "no"],
    ["state", c.status.state],
    ["last error", lastError],
    ["owner", c.owner ? `${c.owner.name}, paired ${localTime(c.owner.paired_at)}` : "not paired"],
    ["pairing code", pairingLine(c)],
    ["token ref", c.bot_token_ref ?? "none"],
    ["agent", c.default_agent],
    ["cwd", c.default_cwd ?? "the daemon's workspace"],
    ["model", c.default_model ?? "the agent's default"],
    ["messages", `${c.counts.messages_in} in, ${c.counts.messages_out} out`],
    ["strangers", `${c.counts.strangers_ignored} ignored`],
    ["outbox", `${c.counts.outbox} waiting`],
    ["conversations", String(c.counts.conversations)],
    ["created", localTime(c.created_at)],
    ["updated", localTime(c.updated_at)],
  ];
  return lines.map(([k, v]) => `${`${k}:`.padEnd(15)}${v}`).join("\n");
}

/**
 * The last code's fate, never the code: a dead code is said out loud (and a late attempt with it),
 * because the bot does not answer whoever sent it.
 */
export function pairingLine(c: ChannelOut): string {
  const p = c.pairing;
  if (!p) return "none waiting";
  const tried = p.refused_at ? `; it was sent at ${localTime(p.refused_at)} and paired nobody` : "";
  const again = `: get a new one with \`${cmd(`channel pair ${c.name}`)}\``;
  if (p.state === "live") return `waiting, until ${localTime(p.expires_at)}`;
  if (p.state === "expired") return `expired at ${localTime(p.expires_at)}${tried}${again}`;
  return `voided (too many wrong guesses from strangers)${tried}${again}`;
}

/** What `pair` prints (without the QR code); `now` gives the validity in words. */
export function pairingText(p: PairingCodeOut, c: ChannelOut, now: Date): string {
  const lines = [
    `pairing code: ${p.code}`,
    `expires:      ${localTime(p.expires_at)} (valid ${validFor(Date.parse(p.expires_at) - now.getTime())})`,
  ];
  if (p.deep_link) lines.push(`open on your phone: ${p.deep_link}`);
  lines.push(c.bot ? `or send the code to @${c.bot.username}` : "or send the code to the channel's bot");
  lines.push("Single use: whoever sends it becomes the channel's only owner.");
  return `${lines.join("\n")}\n`;
}

function validFor(ms: number): string {
  const minutes = Math.max(0, Math.round(ms / 60_000));
  if (minutes >= 60 && minutes % 60 === 0) return minutes === 60 ? "1 hour" : `${minutes / 60} hours`;
  return minutes === 1 ? "1 minute" : `${minutes} minutes`;
}

/** An ISO timestamp as this machine's local "YYYY-MM-DD HH:MM". */
export function localTime(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const two = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}`;
}

/** A phone camera opens a QR code only as a URL with a scheme; the wire's link may leave it out. */
function linkUrl(link: string): string {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(link) ? link : `https://${link}`;
}

/** Loaded only when a terminal will show it: every other run of the CLI skips the module. */
export async function qrCode(text: string): Promise<string> {
  const { default: QRCode } = await import("qrcode");
  return QRCode.toString(text, { type: "terminal", small: true });
}
