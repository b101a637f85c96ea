/**
 * Entry point for a daemon in its own process, with the scripted test agent registered.
 * Used where a test or bench needs a real process boundary: kill -9, restarts, browser
 * e2e, benches. Run with `node --import tsx`. Prints one JSON line `{"ready":{url,token,port,pid}}`.
 * Env: COFFER_HOME (required), COFFER_PORT (default 0), plus every daemon env var, and
 * COFFER_TEST_PROOF_PORT: the port of a test's TCP relay in front of this daemon (proofPort);
 * COFFER_TEST_FAST_CHANNELS=1: the channel rig's short backoffs and edit interval.
 * COFFER_TEST_NO_SCRIPTED=1: leave the scripted agent out (a first run, with only the real agents).
 */
import { resolveDaemonConfig, startDaemon } from "../../src/main.js";
import { consoleLogger, parseLogLevel } from "../../src/infrastructure/system/console-logger.js";
import { FAST_CHANNEL } from "./fast-channel.js";
import { ScriptedAgentProvider } from "./scripted-agent.js";

// COFFER_KEYRING off unless a test asks: a developer's desktop keyring never gets test keys.
const config = resolveDaemonConfig({ COFFER_PORT: "0", COFFER_KEYRING: "off", ...process.env });
const daemon = await startDaemon({
  ...config,
  logger: consoleLogger(parseLogLevel(process.env.COFFER_LOG_LEVEL ?? "warn")),
  webRoot: process.env.COFFER_WEB_ROOT === "none" ? null : undefined,
  providers: (defaults) => (process.env.COFFER_TEST_NO_SCRIPTED === "1" ? defaults : [...defaults, new ScriptedAgentProvider()]),
  proofPort: process.env.COFFER_TEST_PROOF_PORT ? Number(process.env.COFFER_TEST_PROOF_PORT) : undefined,
  ...(process.env.COFFER_TEST_FAST_CHANNELS === "1" ? FAST_CHANNEL : {}),
});
process.stdout.write(`${JSON.stringify({ ready: { url: daemon.url, token: daemon.token, port: daemon.port, pid: process.pid } })}\n`);
const stop = () => void daemon.close().then(() => process.exit(0));
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
