import type { CredentialResolver } from "../credentials/ports.js";
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
