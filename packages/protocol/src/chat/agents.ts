import { z } from "zod";
import { AgentKey } from "../wire/common.js";
import { AgentLimitsOut } from "./plan-limits.js";

/**
 * The marks the page knows how to draw. An agent names one of these; the page draws the
 * neutral "generic" mark for an id it does not know (a newer daemon than the page).
 */
export const AGENT_GLYPHS = ["asterisk", "hexagon", "generic"] as const;
export const AgentGlyph = z.enum(AGENT_GLYPHS);
export type AgentGlyph = z.infer<typeof AgentGlyph>;

/** One command to run in a terminal; `note` is plain text where `backticked` parts are code. */
export const SetupCommandOut = z.object({
  command: z.string(),
  note: z.string().optional(),
});
export type SetupCommandOut = z.infer<typeof SetupCommandOut>;

/** A way to sign in: a command to run, or an environment variable the daemon reads instead. */
export const SignInStepOut = z.union([
  SetupCommandOut,
  z.object({ env: z.string().describe("An environment variable to set for the daemon (e.g. an API key's name).") }),
]);
export type SignInStepOut = z.infer<typeof SignInStepOut>;

/** How a new owner installs the agent's CLI and signs in to it, as the agent's provider says. */
export const AgentSetupOut = z.object({
  install: SetupCommandOut,
  sign_in: z.array(SignInStepOut).describe("Commands first, each a way to sign in; an env entry is the alternative for the daemon."),
  docs_url: z.string().url().optional(),
});
export type AgentSetupOut = z.infer<typeof AgentSetupOut>;

export const AgentOut = z.object({
  agent_key: AgentKey,
  display_name: z.string(),
  available: z.boolean(),
  setup: AgentSetupOut,
  // A plain string on the wire: a page older than the daemon must still read the list.
  glyph: z.string().describe(`The agent's mark, one of ${AGENT_GLYPHS.join(", ")}; the page draws "generic" for any other.`),
  limits: AgentLimitsOut.optional().describe("The agent's plan limits as it last reported them (in memory since the daemon started); absent until it has."),
});
export type AgentOut = z.infer<typeof AgentOut>;

export const AgentListOut = z.object({
  agents: z.array(AgentOut),
  workspace: z.string().optional().describe("Where an agent runs when its conversation names no folder (COFFER_WORKSPACE); absolute."),
});
export type AgentListOut = z.infer<typeof AgentListOut>;

/** One model the agent can run on, as the agent names it (`id` is what the model field takes). */
export const AgentModelOut = z.object({
  id: z.string(),
  label: z.string().nullable().describe("The agent's display name for it, when it gives one."),
  description: z.string().nullable(),
  source: z.enum(["agent", "recent"]).describe("agent: the agent lists it; recent: only used lately in this agent's conversations."),
});
export type AgentModelOut = z.infer<typeof AgentModelOut>;

/**
 * The model field's suggestions for one agent: what the agent itself says it supports (Codex
 * `model/list`, Claude Code's supported models), then models recently used with it. When the
 * agent cannot say (not installed, not signed in, it failed), `models` holds the recent ones
 * only and `reason` says why.
 */
export const AgentModelListOut = z.object({
  agent_key: AgentKey,
  models: z.array(AgentModelOut),
  from_agent: z.boolean().describe("The agent answered (its answer is cached by the daemon)."),
  reason: z.string().nullable().describe("Why the agent's own list is missing; null when it answered."),
});
export type AgentModelListOut = z.infer<typeof AgentModelListOut>;
