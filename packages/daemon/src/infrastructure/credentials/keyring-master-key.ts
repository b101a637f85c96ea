import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { CredentialsKeyUnavailable, StorageFull } from "../../domain/settings-errors.js";
import { readPrivateFile, UnsafePrivateFile, writePrivateFileAtomic } from "../system/private-files.js";
import { masterKey, newKeyText, parseKeyText, type MasterKey, type MasterKeySource } from "./master-key.js";

/** The OS keyring's command-line client (libsecret: GNOME Keyring, KeePassXC, KWallet's bridge). */
export const SECRET_TOOL = "secret-tool";
const SERVICE = "coffer";
/**
 * How long one keyring call may take. The call blocks the daemon (credential reads are
 * synchronous), and it runs once per daemon run: the key is cached in memory after it.
 * A locked keyring that prompts longer than this fails the call with CREDENTIALS_KEY_UNAVAILABLE;
 * the next credential call past RETRY_AFTER_MS asks again.
 */
const CALL_TIMEOUT_MS = 5_000;
/**
 * After the keyring failed to give the key, calls within this long get the same answer without
 * asking again: at start every MCP server resolving a credential would otherwise block the
 * daemon up to CALL_TIMEOUT_MS each while a keyring is locked.
 */
const RETRY_AFTER_MS = 10_000;

/** What the marker file in the data dir records: which keyring entry holds this data dir's key. */
interface KeyringEntry {
  readonly service: string;
  readonly account: string;
}

/**
 * The master key in the OS keyring, through `secret-tool` (attributes `service coffer
 * account <id>`), so a process that can read the data dir does not find the key beside the
 * database. The key goes to `secret-tool store` on its stdin and comes back on its stdout —
 * never on a command line, where every local user could read it. A marker file in the data
 * dir (0600, no secret) names the entry, so a data dir that was moved keeps finding its key
 * and the daemon knows never to make a new one in its place.
 */
export class KeyringMasterKey implements MasterKeySource {
  private cached: MasterKey | null = null;
  private failure: { readonly error: CredentialsKeyUnavailable; readonly at: number } | null = null;

  constructor(
    /** `<data dir>/credentials.key.keyring`. */
    readonly markerPath: string,
    private readonly dataDir: string,
    /** The daemon's environment: PATH finds secret-tool, DBUS_SESSION_BUS_ADDRESS the keyring. */
    private readonly env: NodeJS.ProcessEnv,
    private readonly now: () => number = Date.now,
  ) {}

  get where(): string {
    return `the OS keyring (${this.markerPath})`;
  }

  /** Whether this data dir's key is already in the keyring (the marker is there). */
  hasMarker(): boolean {
    return this.readMarker() !== null;
  }

  get(): MasterKey {
    if (this.cached) return this.cached;
    if (this.failure && this.now() - this.failure.at < RETRY_AFTER_MS) throw this.failure.error;
    try {
      this.cached = this.load();
      this.failure = null;
      return this.cached;
    } catch (err) {
      if (err instanceof CredentialsKeyUnavailable) this.failure = { error: err, at: this.now() };
      throw err;
    }
  }

  /** The key the marker names; never a new one (that would orphan every stored credential). */
  private load(): MasterKey {
    const entry = this.readMarker();
    if (!entry) throw new CredentialsKeyUnavailable("the marker file naming the keyring entry is gone");
    const found = this.run(["lookup", "service", entry.service, "account", entry.account]);
    if (!found.ok) throw new CredentialsKeyUnavailable(found.problem);
    if (!found.stdout.trim()) throw new CredentialsKeyUnavailable("the OS keyring holds no key for this data dir");
    const key = parseKeyText(found.stdout);
    if (!key) throw new CredentialsKeyUnavailable("the keyring entry for this data dir is not a 32-byte base64 key");
    return masterKey(key);
  }

  /**
   * Makes the data dir's first key in the keyring: store, read back (a keyring that accepts
   * and drops it would orphan what is sealed next), then the marker. Throws
   * CredentialsKeyUnavailable when the keyring cannot take it; nothing has been sealed yet, so
   * the caller may fall back to the file.
   */
  create(): MasterKey {
    const entry: KeyringEntry = { service: SERVICE, account: accountFor(this.dataDir) };
    const text = newKeyText();
    const label = `Coffer credentials key (${this.dataDir})`;
    const stored = this.run(["store", `--label=${label}`, "service", entry.service, "account", entry.account], text);
    if (!stored.ok) throw new CredentialsKeyUnavailable(stored.problem);
    const back = this.run(["lookup", "service", entry.service, "account", entry.account]);
    if (!back.ok || back.stdout.trim() !== text) throw new CredentialsKeyUnavailable("the OS keyring did not keep the key it was given");
    try {
      writePrivateFileAtomic(this.markerPath, `${JSON.stringify(entry)}\n`);
    } catch (err) {
      // Without its marker the entry is unused: the next try stores a new key over it.
      const code = (err as NodeJS.ErrnoException).code ?? "";
      if (code === "ENOSPC" || code === "EDQUOT") throw new StorageFull("the credentials key's marker file");
      if (err instanceof UnsafePrivateFile) throw new CredentialsKeyUnavailable(`the marker file ${this.markerPath}: ${err.problem}`);
      throw err;
    }
    return (this.cached = masterKey(parseKeyText(text)!));
  }

  private readMarker(): KeyringEntry | null {
    let bytes: Buffer | null;
    try {
      bytes = readPrivateFile(this.markerPath);
    } catch (err) {
      // A link or someone else's file in its place: refused, never followed (like credentials.key).
      if (err instanceof UnsafePrivateFile) throw new CredentialsKeyUnavailable(`the marker file ${this.markerPath}: ${err.problem}`);
      throw err;
    }
    if (bytes === null) return null;
    try {
      const parsed = JSON.parse(bytes.toString("utf8")) as Partial<KeyringEntry>;
      if (typeof parsed.service === "string" && typeof parsed.account === "string" && parsed.service && parsed.account) {
        return { service: parsed.service, account: parsed.account };
      }
    } catch {
      // garbled: answered below
    }
    throw new CredentialsKeyUnavailable(`the marker file ${this.markerPath} is garbled; it should name the keyring entry`);
  }

  private run(args: string[], input?: string): { ok: true; stdout: string } | { ok: false; problem: string } {
    const result = spawnSync(SECRET_TOOL, args, {
      env: keyringEnv(this.env),
      input: input ?? "",
      encoding: "utf8",
      timeout: CALL_TIMEOUT_MS,
      stdio: ["pipe", "pipe", "pipe"],
    });
    if (result.error) {
      const code = (result.error as NodeJS.ErrnoException).code;
      if (code === "ENOENT") return { ok: false, problem: `${SECRET_TOOL} is not on the daemon's PATH` };
      if (code === "ETIMEDOUT") return { ok: false, problem: `the keyring did not answer within ${CALL_TIMEOUT_MS / 1000} s (is it locked?)` };
      return { ok: false, problem: `${SECRET_TOOL} could not run (${code ?? result.error.message})` };
    }
    // lookup exits 1 with no output when there is no such entry.
    if (result.status === 1 && args[0] === "lookup" && !result.stderr.trim()) return { ok: true, stdout: "" };
    if (result.status !== 0) {
      // secret-tool's own message (no secret in it: the key only ever goes in on stdin).
      const said = result.stderr.trim().split("\n")[0]?.slice(0, 200);
      return { ok: false, problem: `${SECRET_TOOL} ${args[0]} failed${said ? `: ${said}` : ` (${result.signal ?? `exit ${result.status}`})`}` };
    }
    return { ok: true, stdout: result.stdout };
  }
}

/** One entry per data dir: a fingerprint of its path when the key was made (kept in the marker after). */
function accountFor(dataDir: string): string {
  return `data-dir-${createHash("sha256").update(dataDir).digest("hex").slice(0, 16)}`;
}

/** The daemon's environment without Coffer's own variables (the CLI token has no business there). */
function keyringEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !name.toUpperCase().startsWith("COFFER_")));
}
