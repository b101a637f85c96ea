import type http from "node:http";
import { Gates } from "./gates.js";

/**
 * What the fake model servers (Anthropic's Messages, OpenAI's Responses) share: the requests they
 * received, in order, waits on them, the gates a held turn waits on, and closing.
 */
export abstract class FakeModelServer<R> {
  readonly requests: R[] = [];
  protected readonly gates = new Gates();
  protected abstract readonly server: http.Server;
  private readonly matchers: { match: (r: R) => boolean; resolve: (r: R) => void }[] = [];

  /** Resolves with the first request (past or future) that matches. */
  waitForRequest(match: (r: R) => boolean): Promise<R> {
    const found = this.requests.find(match);
    if (found) return Promise.resolve(found);
    return new Promise((resolve) => this.matchers.push({ match, resolve }));
  }

  /** Lets the turn held by `GATE <name>` finish (before or after it arrived). */
  open(name: string): void {
    this.gates.open(name);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** Keeps a request and answers the waits it meets. */
  protected record(request: R): void {
    this.requests.push(request);
    for (const m of [...this.matchers]) {
      if (m.match(request)) {
        this.matchers.splice(this.matchers.indexOf(m), 1);
        m.resolve(request);
      }
    }
  }
}
