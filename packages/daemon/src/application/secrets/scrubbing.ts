import { DomainError } from "../../domain/errors.js";
import type { CredentialResolver, CredentialStore } from "../credentials/ports.js";
import type { Logger } from "../ports.js";
import type { UpstreamTools } from "../gateway/gateway-ports.js";
import type { SecretScrubber } from "./secret-scrubber.js";

/** Every log line goes through the scrubber (the composition root wraps the one logger). */
export function scrubbingLogger(logger: Logger, scrubber: SecretScrubber): Logger {
  const wrap =
    (level: keyof Logger) =>
    (msg: string, ctx?: Record<string, unknown>): void => {
      if (scrubber.idle) return logger[level](msg, ctx);
      logger[level](scrubber.scrub(msg), ctx && scrubber.scrubValue(ctx));
    };
  return { debug: wrap("debug"), info: wrap("info"), warn: wrap("warn"), error: wrap("error") };
}

/** Resolving a credential teaches the scrubber its value, before anything can echo it. */
export function learningResolver(resolver: CredentialResolver, scrubber: SecretScrubber): CredentialResolver {
  return {
    resolve(ref) {
      const secret = resolver.resolve(ref);
      scrubber.learn(ref, secret);
      return secret;
    },
  };
}

/**
 * At start, every stored credential is resolved once so the scrubber knows all their values from
 * the first event on — not only once something uses them: an agent may print a key it read in a
 * file before Coffer has resolved that key this run. One that cannot be read is skipped (warned);
 * it is learnt when it is set again. Returns how many were learnt.
 */
export function learnStoredCredentials(store: Pick<CredentialStore, "list">, resolver: CredentialResolver, logger: Logger): number {
  let learnt = 0;
  for (const { ref } of store.list()) {
    try {
      resolver.resolve(ref);
      learnt += 1;
    } catch (err) {
      logger.warn("a stored credential cannot be read, so its value is not scrubbed until it is set again", {
        ref,
        code: err instanceof DomainError ? err.code : "UNKNOWN",
      });
    }
  }
  return learnt;
}

/**
 * Upstream MCP servers' error text (their stderr tail, an HTTP body that echoes a header)
 * reaches REST and agents only through this view, scrubbed.
 */
export function scrubbedUpstreams(upstreams: UpstreamTools, scrubber: SecretScrubber): UpstreamTools {
  return {
    configure: (config) => upstreams.configure(config),
    remove: (name) => upstreams.remove(name),
    settled: () => upstreams.settled(),
    close: () => upstreams.close(),
    states: () => upstreams.states().map((s) => (s.error === null ? s : { ...s, error: scrubber.scrub(s.error) })),
    async call(server, tool, args, signal) {
      const outcome = await upstreams.call(server, tool, args, signal);
      return outcome.kind === "result" ? outcome : { ...outcome, message: scrubber.scrub(outcome.message) };
    },
  };
}
