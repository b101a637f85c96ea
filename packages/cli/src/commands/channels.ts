import { ChannelCreate, ChannelPatch, ROUTES, type ChannelOut, type PairingCodeOut } from "@coffer/protocol";
import type { Command } from "commander";
import type { ZodType } from "zod";
import { CliError, type DaemonClient } from "../client.js";
import { print, printJson, printTerminalArt } from "../output.js";
import { cmd } from "../hints.js";
import { collect, displayNames, forget, gatherCredentials, parseCredentialFlags, platformOf, type CredentialFlags } from "./channel-credentials.js";

interface AddOptions extends CredentialFlags {
  agent?: string;
  cwd?: string;
  model?: string;
  kind?: string;
  json?: boolean;
}

interface EditOptions extends CredentialFlags {
  name?: string;
  agent?: string;
  cwd?: string;
  model?: string;
  clearCwd?: boolean;
  clearModel?: boolean;
  json?: boolean;
}

/** The credential flags `add` and `edit` share: any platform's, by the names its adapter declares. */
function credentialOptions(c: Command): Command {
  return c
    .option("--token-ref <ref>", "the stored credential holding the platform's bot token (shorthand for --credential-ref bot_token=<ref>)")
    .option("--credential-ref <name=ref>", "a credential the platform declares, already stored with `coffer cred set <ref>` (repeatable)", collect)
    .option(
      "--credential <name[=value]>",
      "a credential the platform declares: name=value for a plain setting; a secret's bare name asks for it (hidden prompt, or one line of stdin) (repeatable)",
      collect,
    );
}

/** `coffer channel …`: IM channels that let the owner talk to agents from a phone, on any platform the daemon registered. */
export function registerChannels(program: Command, client: () => DaemonClient): void {
  const channel = program.command("channel").description("IM channels (chat bots): talk to your agents from your phone");

  credentialOptions(
    channel
      .command("add <name>")
      .description(
        "add a channel on one of the daemon's platforms (`coffer channel kinds`); each credential it declares is asked for unless given, and checked with the platform before anything is stored",
      )
      .option("-a, --agent <key>", "the agent new conversations from this channel run (required; see `coffer agents`)")
      .option("--kind <kind>", "the platform, one the daemon registered (`coffer channel kinds`); default: its only one"),
  )
    .option("--cwd <dir>", "absolute working directory of new conversations (default: the daemon's workspace, ~/coffer-workspace)")
    .option("-m, --model <model>", "the model of new conversations (default: the agent's own)")
    .option("--json", "print JSON")
    .action(async (name: string, opts: AddOptions) => {
      // Checked before the daemon is reached, so a typo costs no round trip to the platform.
      const body = createBody(name, opts);
      const given = parseCredentialFlags(opts);
      const c = client();
      const platform = await platformOf(c, opts.kind);
      const { refs, stored } = await gatherCredentials(c, platform, given, body.name, "add");
      let created: ChannelOut;
      try {
        created = await c.call(ROUTES.createChannel, { body: { ...body, kind: platform.kind, credentials: refs } });
      } catch (err) {
        await forget(c, stored);
        throw err;
      }
      if (opts.json) return printJson(created);
      print(`${channelBlock(created, platform.display_name)}\n`);
      print(`\nPair your phone: ${cmd(`channel pair ${created.name}`)}\n`);
    });

  channel
    .command("kinds")
    .description("the platforms this daemon speaks, with the credentials each asks for")
    .option("--json", "print JSON")
    .action(async (opts: { json?: boolean }) => {
      const out = await client().call(ROUTES.listChannelKinds);
      if (opts.json) return printJson(out);
      if (!out.kinds.length) return print("no channel platforms registered\n");
      for (const k of out.kinds) {
        print(`${k.kind} (${k.display_name})\n`);
        for (const d of k.credentials) print(`  ${d.name}${d.secret ? " (secret)" : ""}: ${d.label}${d.hint ? ` — ${d.hint}` : ""}\n`);
      }
    });

  channel
    .command("ls")
    .alias("list")
    .description("channels with their platform, bot, state, owner and outbox")
    .option("--json", "print JSON")
    .action(async (opts: { json?: boolean }) => {
      const c = client();
      const out = await c.call(ROUTES.listChannels);
      if (opts.json) return printJson(out);
      if (!out.channels.length) return print(`no channels (add one with \`${cmd("channel add")}\`)\n`);
      print(table(out.channels, await displayNames(c)));
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
    print(`${channelBlock(fresh, (await displayNames(c))(fresh.kind))}\n`);
  });

  credentialOptions(
    channel
      .command("edit <channel>")
      .description("change a channel (by name or id); a new credential is checked with the platform before it is kept")
      .option("--name <name>", "rename it")
      .option("-a, --agent <key>", "the agent new conversations run"),
  )
    .option("--cwd <dir>", "absolute working directory of new conversations")
    .option("--clear-cwd", "new conversations run in the daemon's workspace again")
    .option("-m, --model <model>", "the model of new conversations")
    .option("--clear-model", "new conversations use the agent's own model again")
    .option("--json", "print JSON")
    .action(async (ref: string, opts: EditOptions) => {
      const patch = patchBody(opts);
      const given = parseCredentialFlags(opts);
      const touchesCredentials = given.tokenRef !== undefined || Object.keys(given.refs).length > 0 || Object.keys(given.values).length > 0;
      if (!touchesCredentials && !Object.keys(patch).length) {
        throw new CliError("USAGE", "nothing to change: give --name, --agent, --cwd/--clear-cwd, --model/--clear-model or a credential flag");
      }
      const c = client();
      const found = await resolveChannel(c, ref);
      const platform = await platformOf(c, found.kind);
      const { refs, stored } = touchesCredentials ? await gatherCredentials(c, platform, given, patch.name ?? found.name, "edit") : { refs: {}, stored: [] };
      let changed: ChannelOut;
      try {
        changed = await c.call(ROUTES.updateChannel, {
          params: { id: found.id },
          body: { ...patch, ...(Object.keys(refs).length ? { credentials: refs } : {}) },
        });
      } catch (err) {
        await forget(c, stored);
        throw err;
      }
      if (opts.json) return printJson(changed);
      print(`${channelBlock(changed, platform.display_name)}\n`);
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
  default_agent: "--agent",
  default_cwd: "--cwd",
  default_model: "--model",
};

/** The create body without kind and credentials (the daemon's platforms decide those). */
function createBody(name: string, opts: AddOptions): Omit<ChannelCreate, "kind" | "credentials"> {
  if (!opts.agent) throw new CliError("USAGE", `--agent <key> is required: the agent new conversations from this channel run (see \`${cmd("agents")}\`)`);
  const given = {
    // Which kinds exist is the daemon's to say (UNKNOWN_CHANNEL_KIND); a placeholder passes the shape check here.
    kind: opts.kind ?? "pending",
    name,
    default_agent: opts.agent,
    ...(opts.cwd !== undefined ? { default_cwd: opts.cwd } : {}),
    ...(opts.model !== undefined ? { default_model: opts.model } : {}),
  };
  const { kind: _kind, ...body } = checked(ChannelCreate, given);
  return body;
}

function patchBody(opts: EditOptions): ChannelPatch {
  if (opts.cwd !== undefined && opts.clearCwd) throw new CliError("USAGE", "give --cwd or --clear-cwd, not both");
  if (opts.model !== undefined && opts.clearModel) throw new CliError("USAGE", "give --model or --clear-model, not both");
  return checked(ChannelPatch, {
    ...(opts.name !== undefined ? { name: opts.name } : {}),
    ...(opts.agent !== undefined ? { default_agent: opts.agent } : {}),
    ...(opts.cwd !== undefined ? { default_cwd: opts.cwd } : opts.clearCwd ? { default_cwd: null } : {}),
    ...(opts.model !== undefined ? { default_model: opts.model } : opts.clearModel ? { default_model: null } : {}),
  }, { ...FLAG_OF, name: "--name" });
}

/** The protocol's own schema decides what is valid; the CLI only names the flag at fault. */
function checked<T>(schema: ZodType<T>, given: Record<string, unknown>, flags: Record<string, string> = FLAG_OF): T {
  const parsed = schema.safeParse(given);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const field = String(issue.path[0] ?? "");
  const value = given[field];
  throw new CliError("USAGE", `invalid ${flags[field] ?? field}${typeof value === "string" ? ` "${value}"` : ""}: ${issue.message}`);
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

function table(channels: readonly ChannelOut[], platformName: (kind: string) => string): string {
  const rows = [
    ["NAME", "PLATFORM", "BOT", "STATE", "OWNER", "OUTBOX", "ENABLED"],
    ...channels.map((c) => [c.name, platformName(c.kind), botName(c), c.status.state, ownerName(c), String(c.counts.outbox), c.enabled ? "yes" : "no"]),
  ];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows.map((r) => `${r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]!))).join("  ")}\n`).join("");
}

/** `platform` is the kind's display name (the kind itself when no adapter registers it any more). */
function channelBlock(c: ChannelOut, platform: string): string {
  const lastError = c.status.last_error
    ? `${c.status.last_error}${c.status.last_error_at ? ` (${localTime(c.status.last_error_at)})` : ""}`
    : "none";
  const lines: [string, string][] = [
    ["name", c.name],
    ["id", c.id],
    ["platform", platform === c.kind ? c.kind : `${platform} (${c.kind})`],
    ["bot", c.bot ? `@${c.bot.username} (${c.bot.name})` : "not checked yet"],
    ["enabled", c.enabled ? "yes" : "no"],
    ["state", c.status.state],
    ["last error", lastError],
    ["owner", c.owner ? `${c.owner.name}, paired ${localTime(c.owner.paired_at)}` : "not paired"],
    ["pairing code", pairingLine(c)],
    ["credentials", Object.entries(c.credentials).map(([name, ref]) => `${name}=${ref}`).join(", ") || "none"],
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
