import type { ChannelCreate, ChannelKindListOut, ChannelListOut, ChannelOut, ChannelPatch, PairingCodeOut } from "@coffer/protocol";
import { ChannelBotTaken, ChannelNameTaken, ChannelNotFound, ChannelTokenRejected, ChannelUnreachable } from "../../domain/channel-errors.js";
import type { AgentRegistry } from "../agent-registry.js";
import type { AuditSink, CredentialResolver } from "../credentials/ports.js";
import type { ConversationSettings } from "../conversation-settings.js";
import type { Clock, IdGenerator } from "../ports.js";
import { iso } from "../presenters.js";
import type { ChannelRuntime } from "./channel-runtime.js";
import type { PairingCodes } from "./pairing-codes.js";
import type { ChannelPlatforms } from "./platform-registry.js";
import { credentialMap, firstSecretRef, secretRefs } from "./credential-map.js";
import { PlatformFailure, type BotIdentity, type ChannelRecord, type ChannelStore, type CredentialRefs } from "./ports.js";

export interface ChannelServiceDeps {
  readonly store: ChannelStore;
  readonly platforms: ChannelPlatforms;
  readonly credentials: CredentialResolver;
  readonly registry: AgentRegistry;
  /** A removed channel's conversations stay, unbound. */
  readonly conversationSettings: Pick<ConversationSettings, "unbindChannel">;
  readonly runtime: ChannelRuntime;
  readonly pairing: PairingCodes;
  readonly audit: AuditSink;
  readonly clock: Clock;
  readonly ids: IdGenerator;
}

/** Channels as vault state: add (token checked first), change, pair, enable, disable, remove. */
export class ChannelService {
  constructor(private readonly deps: ChannelServiceDeps) {}

  /** The platforms a channel can speak, as their adapters declare them. */
  kinds(): ChannelKindListOut {
    return this.deps.platforms.kinds();
  }

  list(): ChannelListOut {
    return { channels: this.deps.store.list().map((c) => this.out(c)) };
  }

  get(id: string): ChannelOut {
    return this.out(this.require(id));
  }

  async create(input: ChannelCreate): Promise<ChannelOut> {
    const { store, registry, clock, ids } = this.deps;
    // The kind first: the wire only checked its shape, the registered adapters decide.
    const platform = this.deps.platforms.require(input.kind);
    const refs = credentialMap(platform, {}, input.credentials, input.bot_token_ref);
    registry.get(input.default_agent);
    if (store.findByName(input.name)) throw new ChannelNameTaken(input.name);
    const bot = await this.checkToken(input.kind, refs, null);
    const id = ids();
    const now = clock.now();
    store.transaction(() => {
      store.insert({
        id,
        kind: input.kind,
        name: input.name,
        credentialRefs: refs,
        defaultAgent: input.default_agent,
        defaultCwd: input.default_cwd ?? null,
        defaultModel: input.default_model ?? null,
        bot,
        now,
      });
      this.deps.audit("user", "channel_created", { channel_id: id, name: input.name, kind: input.kind, bot: bot.username }, now);
    });
    this.deps.runtime.start(id);
    return this.get(id);
  }

  async update(id: string, patch: ChannelPatch): Promise<ChannelOut> {
    const { store, registry, clock } = this.deps;
    const channel = this.require(id);
    if (patch.default_agent) registry.get(patch.default_agent);
    if (patch.name && patch.name !== channel.name && store.findByName(patch.name)) throw new ChannelNameTaken(patch.name);
    const newRefs = patch.credentials || patch.bot_token_ref
      ? credentialMap(this.deps.platforms.require(channel.kind), channel.credentialRefs, patch.credentials, patch.bot_token_ref)
      : undefined;
    const bot = newRefs ? await this.checkToken(channel.kind, newRefs, id) : undefined;
    const now = clock.now();
    store.transaction(() => {
      store.update(
        id,
        {
          name: patch.name,
          credentialRefs: newRefs,
          defaultAgent: patch.default_agent,
          defaultCwd: patch.default_cwd,
          defaultModel: patch.default_model,
          bot,
        },
        now,
      );
      // Another bot has its own update numbering: resuming it from the old bot's cursor would skip its first messages.
      if (bot && channel.bot?.id !== bot.id) store.setCursor(id, null);
      this.deps.audit("user", "channel_updated", { channel_id: id, fields: Object.keys(patch) }, now);
    });
    // A new token means a new connection; defaults apply to the next new conversation anyway.
    if (bot && channel.enabled) await this.deps.runtime.restart(id);
    return this.get(id);
  }

  async remove(id: string): Promise<void> {
    const channel = this.require(id);
    await this.deps.runtime.stop(id);
    this.deps.pairing.forget(id);
    this.deps.conversationSettings.unbindChannel(id);
    const now = this.deps.clock.now();
    this.deps.store.transaction(() => {
      this.deps.store.delete(id);
      this.deps.audit("user", "channel_deleted", { channel_id: id, name: channel.name }, now);
    });
  }

  async enable(id: string): Promise<ChannelOut> {
    this.require(id);
    const now = this.deps.clock.now();
    this.deps.store.setEnabled(id, true, now);
    this.deps.audit("user", "channel_enabled", { channel_id: id }, now);
    // Also the way back from "stopped" (a token fixed with `coffer cred set`): a fresh start.
    await this.deps.runtime.restart(id);
    return this.get(id);
  }

  async disable(id: string): Promise<ChannelOut> {
    this.require(id);
    const now = this.deps.clock.now();
    this.deps.store.setEnabled(id, false, now);
    this.deps.audit("user", "channel_disabled", { channel_id: id }, now);
    await this.deps.runtime.stop(id);
    return this.get(id);
  }

  /** A fresh one-time code; the code itself is never audited or logged. */
  pairingCode(id: string): PairingCodeOut {
    const channel = this.require(id);
    const now = this.deps.clock.now();
    const { code, expiresAt } = this.deps.pairing.issue(id, now);
    this.deps.audit("user", "channel_pairing_code_issued", { channel_id: id }, now);
    const platform = this.deps.platforms.get(channel.kind);
    return {
      code,
      expires_at: iso(expiresAt),
      deep_link: channel.bot && platform ? platform.deepLink(channel.bot.username, code) : null,
    };
  }

  /** Who the credentials behind `refs` belong to: nothing is stored unless the platform accepts them. */
  private async checkToken(kind: string, refs: CredentialRefs, selfId: string | null): Promise<BotIdentity> {
    const platform = this.deps.platforms.require(kind);
    const values = Object.fromEntries(Object.entries(refs).map(([name, r]) => [name, this.deps.credentials.resolve(r)]));
    // The refusal names the secret refs (what the owner re-stores), never a value.
    const ref = secretRefs(platform, refs).join('" or "');
    let bot: BotIdentity;
    try {
      bot = await platform.check(values);
    } catch (err) {
      if (err instanceof PlatformFailure && (err.kind === "unauthorized" || err.kind === "rejected")) throw new ChannelTokenRejected(ref, err.message);
      if (err instanceof PlatformFailure) throw new ChannelUnreachable(ref, err.message, err.cause_code);
      throw new ChannelUnreachable(ref, err instanceof Error ? err.message : String(err));
    }
    const holder = this.deps.store.findByBotId(bot.id);
    if (holder && holder.kind === kind && holder.id !== selfId) throw new ChannelBotTaken(bot.username, holder.name);
    return bot;
  }

  private require(id: string): ChannelRecord {
    const channel = this.deps.store.get(id);
    if (!channel) throw new ChannelNotFound(id);
    return channel;
  }

  private pairingOut(id: string): ChannelOut["pairing"] {
    const p = this.deps.pairing.state(id, this.deps.clock.now());
    return p && { state: p.state, expires_at: iso(p.expiresAt), refused_at: p.refusedAt === null ? null : iso(p.refusedAt) };
  }

  private out(c: ChannelRecord): ChannelOut {
    const status = this.deps.runtime.status(c.id);
    return {
      id: c.id,
      kind: c.kind,
      name: c.name,
      credentials: { ...c.credentialRefs },
      bot_token_ref: firstSecretRef(this.deps.platforms.get(c.kind), c.credentialRefs),
      default_agent: c.defaultAgent,
      default_cwd: c.defaultCwd,
      default_model: c.defaultModel,
      enabled: c.enabled,
      bot: c.bot ? { username: c.bot.username, name: c.bot.name } : null,
      owner: c.owner ? { name: c.owner.name, paired_at: iso(c.owner.pairedAt) } : null,
      pairing: this.pairingOut(c.id),
      status: {
        state: c.enabled ? status.state : "disabled",
        last_error: status.lastError,
        last_error_at: status.lastErrorAt === null ? null : iso(status.lastErrorAt),
      },
      counts: {
        messages_in: c.messagesIn,
        messages_out: c.messagesOut,
        strangers_ignored: c.strangersIgnored,
        outbox: this.deps.store.countOutbox(c.id),
        conversations: this.deps.store.countBoundConversations(c.id),
      },
      created_at: iso(c.createdAt),
      updated_at: iso(c.updatedAt),
    };
  }
}
