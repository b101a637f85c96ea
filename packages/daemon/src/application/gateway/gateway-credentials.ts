import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * Who is calling `/mcp`: the owner (their own MCP client, with the daemon token) or one
 * managed agent in one conversation (with the gateway-only credential it was launched with).
 */
import type { GatewayPrincipal } from "./gateway-ports.js";

export type { GatewayPrincipal } from "./gateway-ports.js";

export const OWNER: GatewayPrincipal = { kind: "owner" };

const PREFIX = "cgw1.";
const MAX_STAND_INS = 256;

/**
 * Gateway-only credentials for agent launches: `cgw1.<base64url(agent \n conversation)>.<mac>`
 * with mac = HMAC-SHA256(daemon token, "gateway\n" + agent + "\n" + conversation). Derived,
 * not stored: nothing to persist or expire, a warm session's spec stays equal turn to turn,
 * and rotating the daemon token revokes them all. The HTTP layer accepts them on `/mcp`
 * only, and the identity comes from the verified credential, never from a header the
 * client sets (docs/decisions.md, "Secrets and audit").
 */
export class GatewayCredentials {
  /**
   * Stand-in ids (a process pre-warmed for a draft, before its conversation existed) → the
   * conversation whose first turn adopted it. In memory: the process dies with the daemon.
   */
  private readonly adopted = new Map<string, string>();
  /**
   * Stand-ins issued and not yet adopted, oldest first. The daemon issues credentials for existing
   * conversations and for pre-warm stand-ins only, so an id that is no conversation at issue time
   * is a stand-in. Bounded: pre-warm is rate-limited, and a spare this old has long been evicted.
   */
  private readonly standIns = new Set<string>();

  /**
   * `exists` says whether a conversation is there now: a credential outlives nothing, so one for
   * a deleted (or never created) conversation is refused. The default knows none (test minting).
   */
  constructor(
    private readonly daemonToken: string,
    private readonly exists: (conversationId: string) => boolean = () => false,
  ) {}

  /** From now on `standInId`'s credential stands for `conversationId` (audit names it). */
  adopt(agent: string, standInId: string, conversationId: string): void {
    this.standIns.delete(`${agent}\n${standInId}`);
    this.adopted.set(`${agent}\n${standInId}`, conversationId);
  }

  issue(agent: string, conversationId: string): string {
    if (!this.exists(conversationId)) this.rememberStandIn(`${agent}\n${conversationId}`);
    const id = Buffer.from(`${agent}\n${conversationId}`, "utf8").toString("base64url");
    return `${PREFIX}${id}.${this.mac(agent, conversationId)}`;
  }

  /** The principal an agent credential stands for, or null when it is not a valid one. */
  verify(given: string): GatewayPrincipal | null {
    if (!given.startsWith(PREFIX)) return null;
    const [id, mac, ...rest] = given.slice(PREFIX.length).split(".");
    if (!id || !mac || rest.length) return null;
    const [agent, conversationId, ...extra] = Buffer.from(id, "base64url").toString("utf8").split("\n");
    if (!agent || !conversationId || extra.length) return null;
    const expected = Buffer.from(this.mac(agent, conversationId));
    const actual = Buffer.from(mac);
    if (actual.length !== expected.length || !timingSafeEqual(actual, expected)) return null;
    return this.live(agent, conversationId);
  }

  /** The principal for a well-signed credential, if what it names is still there. */
  private live(agent: string, id: string): GatewayPrincipal | null {
    const key = `${agent}\n${id}`;
    const conversationId = this.adopted.get(key) ?? id;
    if (this.exists(conversationId) || this.standIns.has(key)) return { kind: "agent", agent, conversationId };
    return null;
  }

  private rememberStandIn(key: string): void {
    this.standIns.add(key);
    if (this.standIns.size > MAX_STAND_INS) this.standIns.delete(this.standIns.values().next().value as string);
  }

  private mac(agent: string, conversationId: string): string {
    return createHmac("sha256", this.daemonToken).update(`gateway\n${agent}\n${conversationId}`).digest("base64url");
  }
}
