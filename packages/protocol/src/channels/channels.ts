import { z } from "zod";
import { AgentKey, Timestamp } from "../wire/common.js";
import { CredentialRef } from "../settings/credentials.js";

/**
 * The IM platform a channel speaks: a name registered by one of the daemon's platform adapters
 * (GET /channel-kinds lists them). The wire only checks its shape; the daemon refuses a kind no
 * adapter registered with UNKNOWN_CHANNEL_KIND, so adding a platform changes no schema here.
 */
export const ChannelKind = z.string().regex(/^[a-z][a-z0-9_-]{0,31}$/, "a platform name: lower-case letters, digits, - or _");
export type ChannelKind = z.infer<typeof ChannelKind>;

/** One credential a platform needs, as its adapter declares it: the page's channel form is built from these. */
export const ChannelCredentialField = z.object({
  name: z.string().describe("The key in the channel's credential map, e.g. bot_token."),
  label: z.string().describe("What the form calls it."),
  secret: z.boolean().describe("Sealed in the credential store and never returned; false = a plain setting."),
  hint: z.string().nullable().describe("Where the owner gets it, in one line."),
});
export type ChannelCredentialField = z.infer<typeof ChannelCredentialField>;

export const ChannelKindOut = z.object({
  kind: ChannelKind,
  display_name: z.string(),
  credentials: z.array(ChannelCredentialField),
});
export type ChannelKindOut = z.infer<typeof ChannelKindOut>;

export const ChannelKindListOut = z.object({ kinds: z.array(ChannelKindOut) });
export type ChannelKindListOut = z.infer<typeof ChannelKindListOut>;

export const ChannelId = z.string().min(1).max(64);

const ChannelName = z.string().trim().min(1).max(64);
const Cwd = z.string().trim().min(1).max(4096).refine((p) => p.startsWith("/"), "an absolute path");
const Model = z.string().trim().min(1).max(200);

/** A channel's credentials: each name its platform declares (GET /channel-kinds) → the credential ref holding it. */
export const ChannelCredentialRefs = z.record(z.string().regex(/^[a-z][a-z0-9_]{0,31}$/), CredentialRef);
export type ChannelCredentialRefs = z.infer<typeof ChannelCredentialRefs>;

export const ChannelCreate = z.object({
  kind: ChannelKind,
  name: ChannelName,
  credentials: ChannelCredentialRefs.optional().describe(
    "Each credential the platform declares → a credential ref holding it (set it first with PUT /credentials/{ref}); never the secret itself.",
  ),
  bot_token_ref: CredentialRef.optional().describe("Shorthand for the platform's first secret credential (Telegram's bot_token)."),
  default_agent: AgentKey.describe("The agent a new conversation from this channel runs."),
  default_cwd: Cwd.nullable().optional().describe("The working directory of new conversations; null = the daemon's workspace."),
  default_model: Model.nullable().optional().describe("The model of new conversations; null = the agent's own default."),
});
export type ChannelCreate = z.infer<typeof ChannelCreate>;

export const ChannelPatch = z
  .object({
    name: ChannelName,
    credentials: ChannelCredentialRefs.describe("Replaces the named credential refs; the others stay."),
    bot_token_ref: CredentialRef,
    default_agent: AgentKey,
    default_cwd: Cwd.nullable(),
    default_model: Model.nullable(),
  })
  .partial();
export type ChannelPatch = z.infer<typeof ChannelPatch>;

/**
 * What the channel's poller is doing now. `disabled`: switched off; `starting`: checking the
 * token; `polling`: receiving; `retrying`: the last poll failed and it waits to try again
 * (`last_error` says why); `stopped`: a fault the owner has to fix (a revoked token, another
 * poller on the same bot).
 */
export const ChannelState = z.enum(["disabled", "starting", "polling", "retrying", "stopped"]);
export type ChannelState = z.infer<typeof ChannelState>;

export const ChannelOut = z.object({
  id: ChannelId,
  kind: ChannelKind,
  name: z.string(),
  credentials: ChannelCredentialRefs.describe("Credential name → the ref holding it; the secret values are never returned."),
  bot_token_ref: CredentialRef.nullable().describe("The ref of the platform's first secret credential (Telegram's bot_token)."),
  default_agent: z.string(),
  default_cwd: z.string().nullable(),
  default_model: z.string().nullable(),
  enabled: z.boolean(),
  bot: z.object({ username: z.string(), name: z.string() }).nullable().describe("From getMe; null until the token was checked."),
  owner: z
    .object({ name: z.string(), paired_at: Timestamp })
    .nullable()
    .describe("The one paired owner; null until someone sends a pairing code."),
  pairing: z
    .object({
      state: z.enum(["live", "expired", "voided"]).describe("voided: too many strangers guessed wrong; issue a new code."),
      expires_at: Timestamp,
      refused_at: Timestamp.nullable().describe("When this code was last sent after it stopped working: it paired nobody."),
    })
    .nullable()
    .describe("The last pairing code issued and not used yet (never the code itself); null once used."),
  status: z.object({
    state: ChannelState,
    last_error: z.string().nullable().describe("The last failure, in words (never the token)."),
    last_error_at: Timestamp.nullable(),
  }),
  counts: z.object({
    messages_in: z.number().int().describe("Owner messages received."),
    messages_out: z.number().int().describe("Messages delivered to the chat."),
    strangers_ignored: z.number().int().describe("Updates from anyone but the owner: ignored, content never stored."),
    outbox: z.number().int().describe("Messages waiting to be delivered."),
    conversations: z.number().int().describe("Conversations bound to this channel."),
  }),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type ChannelOut = z.infer<typeof ChannelOut>;

export const ChannelListOut = z.object({ channels: z.array(ChannelOut) });
export type ChannelListOut = z.infer<typeof ChannelListOut>;

/** Pairing codes: 8 characters from this alphabet (no 0/O, 1/I/L), single use, 1 hour, 10 wrong guesses per sender. */
export const PAIRING_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789";
export const PAIRING_CODE_LENGTH = 8;

export const PairingCodeOut = z.object({
  code: z.string().length(PAIRING_CODE_LENGTH),
  expires_at: Timestamp,
  deep_link: z.string().nullable().describe("t.me/<bot>?start=<code>: opening it on the phone pairs in one tap."),
});
export type PairingCodeOut = z.infer<typeof PairingCodeOut>;
