import http from "node:http";
import { lstatSync } from "node:fs";
import net from "node:net";

/** Where requests go: the daemon's URL, or its Unix socket (the URL then only names the Host). */
export interface Target {
  readonly url: string;
  readonly socketPath?: string;
}

export interface RawAnswer {
  readonly status: number;
  readonly text: string;
}

/** The data dir's socket when one is there (a socket, not whatever else took the name). */
export function socketIn(path: string): string | undefined {
  try {
    return lstatSync(path).isSocket() ? path : undefined;
  } catch {
    return undefined;
  }
}

/** True when a daemon accepts connections on the socket (a stale one from a killed daemon does not). */
export function socketAnswers(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect(path);
    s.once("connect", () => {
      s.destroy();
      resolve(true);
    });
    s.once("error", () => resolve(false));
  });
}

/** Node's request options for a target: over the socket when set, else to the URL's host and port. */
export function requestOptions(target: Target, path: string, method: string, headers: Record<string, string>): http.RequestOptions {
  const u = new URL(`${target.url}/api/v1${path}`);
  const where = target.socketPath ? { socketPath: target.socketPath } : { hostname: u.hostname, port: u.port };
  return { ...where, path: `${u.pathname}${u.search}`, method, headers: { host: u.host, ...headers } };
}

/** One request, its whole answer read as text; rejects only when the daemon cannot be reached. */
export function httpRequest(target: Target, method: string, path: string, headers: Record<string, string>, body?: string | Buffer): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = http.request(requestOptions(target, path, method, headers), (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (text += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(body);
  });
}
