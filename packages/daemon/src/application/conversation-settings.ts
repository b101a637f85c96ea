import type { AgentConfigOut, AgentConfigPatch, ConversationOut } from "@coffer/protocol";
import { stringField, withModel } from "../domain/agent-config.js";
import type { ChannelBinding, Conversation } from "../domain/conversation.js";
import type { ConversationViews } from "./conversation-views.js";
import type { ConversationStore } from "./ports.js";

export interface ConversationSettingsDeps {
  readonly store: Pick<ConversationStore, "setAgentConfig" | "setChannelBinding" | "unbindChannel">;
  readonly views: ConversationViews;
}

/** A conversation's settings: its agent config (the model) and the IM chat it is bound to. */
export class ConversationSettings {
  constructor(private readonly deps: ConversationSettingsDeps) {}

  agentConfig(id: string): AgentConfigOut {
    return configOut(this.deps.views.require(id));
  }

  /** Set or clear the model only; cwd and session id are carried over untouched. */
  patchAgentConfig(id: string, patch: AgentConfigPatch): AgentConfigOut {
    const { store, views } = this.deps;
    const conv = views.require(id);
    if (patch.model !== undefined) {
      store.setAgentConfig(id, withModel(conv.agentConfig, patch.model));
      views.changed(id);
    }
    return configOut(views.require(id));
  }

  /** Bind (or unbind) the conversation to an IM chat; every open list shows the change. */
  bindChannel(id: string, binding: ChannelBinding | null): ConversationOut {
    this.deps.views.require(id);
    this.deps.store.setChannelBinding(id, binding);
    return this.deps.views.changed(id);
  }

  /** A channel went away: its conversations stay in history, unbound. */
  unbindChannel(channelId: string): void {
    for (const id of this.deps.store.unbindChannel(channelId)) this.deps.views.changed(id);
  }
}

function configOut(conv: Conversation): AgentConfigOut {
  return { cwd: stringField(conv.agentConfig, "cwd") ?? null, model: stringField(conv.agentConfig, "model") ?? null };
}
