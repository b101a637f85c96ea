import { CredentialRef, ROUTES, type ChannelKindOut } from "@coffer/protocol";
import { CliError, type DaemonClient } from "../client.js";
import { cmd } from "../hints.js";
import { readValues } from "../secret-input.js";

/** The credential flags of `channel add|edit`, as commander collects them. */
export interface CredentialFlags {
  readonly tokenRef?: string;
  /** `name=value` (a non-secret setting), or a bare `name` (asked for: prompt or stdin). */
  readonly credential?: readonly string[];
  /** `name=ref`: a credential already stored with `coffer cred set`. */
  readonly credentialRef?: readonly string[];
}

/** What the flags say, checked for shape only: which names a platform has is the daemon's to say. */
export interface GivenCredentials {
  readonly refs: Readonly<Record<string, string>>;
  /** A value given on the command line, or null = ask for it. */
  readonly values: Readonly<Record<string, string | null>>;
  readonly tokenRef?: string;
}

const NAME = /^[a-z][a-z0-9_]{0,31}$/;

/** Commander's collector for a repeatable option. */
export const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

export function parseCredentialFlags(flags: CredentialFlags): GivenCredentials {
  const refs: Record<string, string> = {};
  const values: Record<string, string | null> = {};
  for (const pair of flags.credentialRef ?? []) {
    const [name, ref] = split(pair, "--credential-ref", "name=ref");
    if (ref === null || !CredentialRef.safeParse(ref).success) {
      throw new CliError("USAGE", `invalid --credential-ref "${pair}": give name=ref, the ref one stored with \`${cmd("cred set <ref>")}\``);
    }
    refs[name] = ref;
  }
  for (const pair of flags.credential ?? []) {
    const [name, value] = split(pair, "--credential", "name=value");
    if (name in refs) throw new CliError("USAGE", `${name} is given twice (--credential and --credential-ref)`);
    values[name] = value;
  }
  if (flags.tokenRef !== undefined && !CredentialRef.safeParse(flags.tokenRef).success) {
    throw new CliError("USAGE", `invalid --token-ref "${flags.tokenRef}": letters, digits, '.', '_' or '-', starting with a letter or digit`);
  }
  return { refs, values, ...(flags.tokenRef !== undefined ? { tokenRef: flags.tokenRef } : {}) };
}

function split(pair: string, flag: string, form: string): [string, string | null] {
  const at = pair.indexOf("=");
  const name = at < 0 ? pair : pair.slice(0, at);
  if (!NAME.test(name)) throw new CliError("USAGE", `invalid ${flag} "${at < 0 ? pair : `${name}=…`}": give ${form} (a credential name as GET /channel-kinds lists it)`);
  return [name, at < 0 ? null : pair.slice(at + 1)];
}

/** The platform `kind` names, from what the daemon registered; without one, its only platform. */
export async function platformOf(c: DaemonClient, kind: string | undefined): Promise<ChannelKindOut> {
  const { kinds } = await c.call(ROUTES.listChannelKinds);
  const speaks = kinds.map((k) => `${k.kind} (${k.display_name})`).join(", ") || "no platform";
  if (kind === undefined) {
    if (kinds.length === 1) return kinds[0]!;
    throw new CliError("USAGE", `--kind <kind> is required: this daemon speaks ${speaks}`);
  }
  const found = kinds.find((k) => k.kind === kind);
  if (!found) throw new CliError("UNKNOWN_CHANNEL_KIND", `no channel platform "${kind}"; this daemon speaks ${speaks}`, 422, { kind, known: kinds.map((k) => k.kind) });
  return found;
}

/** The display name of a kind, or the kind itself when no adapter registers it any more. */
export async function displayNames(c: DaemonClient): Promise<(kind: string) => string> {
  const { kinds } = await c.call(ROUTES.listChannelKinds);
  return (kind) => kinds.find((k) => k.kind === kind)?.display_name ?? kind;
}

export interface Gathered {
  /** Declared name → credential ref, for the create body or the patch. */
  readonly refs: Record<string, string>;
  /** Refs this run stored (fresh names): removed again if the daemon refuses the channel. */
  readonly stored: string[];
}

/**
 * The channel's credential map for `platform`: refs as given, values stored under fresh refs. On
 * `add` every declared credential with neither is asked for; on `edit` only the bare names. A
 * secret's value is never taken from the command line (it would stay in the shell history and in
 * `ps`): it is typed at a prompt that echoes nothing, or piped on stdin (one line each).
 */
export async function gatherCredentials(
  c: DaemonClient,
  platform: ChannelKindOut,
  given: GivenCredentials,
  channelName: string,
  mode: "add" | "edit",
): Promise<Gathered> {
  const declared = platform.credentials;
  const declaredList = declared.map((d) => `${d.name}${d.secret ? " (secret)" : ""}`).join(", ") || "nothing";
  const invalid = (why: string) =>
    new CliError("CHANNEL_CREDENTIALS_INVALID", `credentials for ${platform.display_name}: ${why} (it declares: ${declaredList})`, 422, {
      declared: declared.map((d) => d.name),
    });

  const refs: Record<string, string> = { ...given.refs };
  if (given.tokenRef !== undefined) {
    const first = declared.find((d) => d.secret);
    if (!first) throw invalid("it has no secret credential for --token-ref");
    if (first.name in given.values || (first.name in given.refs && given.refs[first.name] !== given.tokenRef)) {
      throw new CliError("USAGE", `--token-ref is ${first.name}, which is also given another way`);
    }
    refs[first.name] = given.tokenRef;
  }
  const unknown = [...Object.keys(refs), ...Object.keys(given.values)].filter((n) => !declared.some((d) => d.name === n));
  if (unknown.length) throw invalid(`it has no credential named ${unknown.join(", ")}`);

  const values: Record<string, string | null> = { ...given.values };
  for (const d of declared) {
    const value = values[d.name];
    if (d.secret && typeof value === "string") {
      throw new CliError(
        "USAGE",
        `${d.name} is a secret: a value on the command line stays in your shell history. Give --credential ${d.name} without a value and type it at the prompt (or pipe it on stdin), or store it with \`${cmd("cred set <ref>")}\` and pass --credential-ref ${d.name}=<ref>`,
      );
    }
    if (mode === "add" && !(d.name in refs) && !(d.name in values)) values[d.name] = null;
  }

  const asked = declared.filter((d) => values[d.name] === null);
  const answers = await readValues(
    asked.map((d) => ({ prompt: `${platform.display_name} ${d.label.toLowerCase()}${d.hint ? ` (${d.hint.replace(/\.$/, "")})` : ""}: `, hidden: d.secret })),
  );
  asked.forEach((d, i) => (values[d.name] = answers[i]!.trim()));
  const empty = declared.filter((d) => values[d.name] === "");
  if (empty.length) {
    const names = empty.map((d) => d.name).join(", ");
    throw invalid(`${names} ${empty.length === 1 ? "is" : "are"} missing: type it at the prompt, pipe it on stdin (one line each), or pass --credential-ref <name>=<ref>`);
  }

  const stored: string[] = [];
  const toStore = declared.filter((d) => typeof values[d.name] === "string");
  if (toStore.length) {
    const taken = new Set((await c.call(ROUTES.listCredentials)).credentials.map((cr) => cr.ref));
    try {
      for (const d of toStore) {
        const ref = freeRef(taken, platform.kind, channelName, d.name);
        await c.call(ROUTES.setCredential, { params: { ref }, body: { secret: values[d.name]! } });
        taken.add(ref);
        stored.push(ref);
        refs[d.name] = ref;
      }
    } catch (err) {
      await forget(c, stored);
      throw err;
    }
  }
  return { refs, stored };
}

/** `telegram-phone-bot-token`, or with `-2`, `-3`… when taken: never overwrites a ref another channel may use. */
function freeRef(taken: ReadonlySet<string>, kind: string, channelName: string, name: string): string {
  const slug = channelName.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 64) || "channel";
  const base = `${kind}-${slug}-${name.replace(/_/g, "-")}`;
  let ref = base;
  for (let n = 2; taken.has(ref); n++) ref = `${base}-${n}`;
  return ref;
}

/** Removes the refs a refused add/edit stored, best effort: the refusal is what the owner must see. */
export async function forget(c: DaemonClient, refs: readonly string[]): Promise<void> {
  for (const ref of refs) await c.call(ROUTES.deleteCredential, { params: { ref } }).catch(() => undefined);
}
