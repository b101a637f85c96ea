import type { ChannelKindListOut } from "@coffer/protocol";
import { UnknownChannelKind } from "../../domain/channel-errors.js";
import type { ChatPlatform } from "./ports.js";

/**
 * The registered platform adapters, by kind: the only place a channel's kind is looked up. The
 * composition root registers each adapter once; nothing above it names a platform, so a new one
 * is a new adapter and one registration, not a new literal in every layer.
 */
export class ChannelPlatforms {
  private readonly byKind = new Map<string, ChatPlatform>();

  constructor(adapters: readonly ChatPlatform[]) {
    for (const adapter of adapters) {
      if (this.byKind.has(adapter.kind)) throw new Error(`two channel platforms register the kind "${adapter.kind}"`);
      this.byKind.set(adapter.kind, adapter);
    }
  }

  get(kind: string): ChatPlatform | undefined {
    return this.byKind.get(kind);
  }

  /** The adapter of `kind`, or UNKNOWN_CHANNEL_KIND (422) naming the kinds there are. */
  require(kind: string): ChatPlatform {
    const adapter = this.byKind.get(kind);
    if (!adapter) throw new UnknownChannelKind(kind, [...this.byKind.keys()]);
    return adapter;
  }

  /** What GET /channel-kinds answers: each platform with the credentials its form asks for. */
  kinds(): ChannelKindListOut {
    return {
      kinds: [...this.byKind.values()].map((p) => ({
        kind: p.kind,
        display_name: p.displayName,
        credentials: p.credentials.map((c) => ({ name: c.name, label: c.label, secret: c.secret, hint: c.hint })),
      })),
    };
  }
}
