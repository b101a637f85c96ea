/**
 * What a test needs to run the REAL codex binary offline: a temp CODEX_HOME whose
 * config.toml points at our fake Responses server (a custom model provider), and a temp bin
 * folder holding `codex` (a symlink to the installed native binary) for the daemon's PATH.
 */
import { existsSync } from "node:fs";
import { chmod, mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { delimiter, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../../../..");

/** The native binary from the root devDependency `@openai/codex`. */
export const CODEX_BINARY = join(
  REPO_ROOT,
  "node_modules/@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex",
);

export const FAKE_DEFAULT_MODEL = "gpt-5.5";

/** `streamRetries` > 0 lets Codex retry a failed model call ("Reconnecting... n/N"), for retry tests. */
export function codexConfigToml(baseUrl: string, model = FAKE_DEFAULT_MODEL, streamRetries = 0): string {
  return `model = "${model}"
model_provider = "fake"
approval_policy = "never"
sandbox_mode = "danger-full-access"
check_for_update_on_startup = false

[model_providers.fake]
name = "Fake OpenAI"
base_url = "${baseUrl}"
wire_api = "responses"
env_key = "FAKE_OPENAI_API_KEY"
request_max_retries = 0
stream_max_retries = ${streamRetries}
stream_idle_timeout_ms = 20000

[features]
plugins = false

[analytics]
enabled = false
`;
}

export interface CodexSandbox {
  /** CODEX_HOME for the app-server. */
  readonly codexHome: string;
  /** A folder with `codex` in it, for PATH. */
  readonly binDir: string;
  /** The daemon's environment: PATH with binDir first, COFFER_CODEX_HOME, the fake's key. */
  readonly env: NodeJS.ProcessEnv;
  /** Put a different `codex` in binDir (e.g. a wrapper script). */
  replaceBinary(script: string): Promise<void>;
  remove(): Promise<void>;
}

export async function makeCodexSandbox(baseUrl: string): Promise<CodexSandbox> {
  if (!existsSync(CODEX_BINARY)) throw new Error(`codex binary missing at ${CODEX_BINARY}; run npm install`);
  const root = await mkdtemp(join(tmpdir(), "coffer-codex-"));
  const codexHome = join(root, "codex-home");
  const binDir = join(root, "bin");
  await mkdir(codexHome, { recursive: true });
  await mkdir(binDir, { recursive: true });
  await writeFile(join(codexHome, "config.toml"), codexConfigToml(baseUrl));
  await symlink(CODEX_BINARY, join(binDir, "codex"));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PATH: `${binDir}${delimiter}${process.env.PATH ?? ""}`,
    COFFER_CODEX_HOME: codexHome,
    FAKE_OPENAI_API_KEY: "dummy",
  };
  delete env.CODEX_HOME;
  delete env.COFFER_CODEX_BIN;
  return {
    codexHome,
    binDir,
    env,
    async replaceBinary(script) {
      const target = join(binDir, "codex");
      await rm(target, { force: true });
      await writeFile(target, script);
      await chmod(target, 0o755);
    },
    remove: () => rm(root, { recursive: true, force: true }),
  };
}
