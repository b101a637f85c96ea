import http from "node:http";

/** One keep-alive connection, requests one after another: what a page or CLI does. */
export class KeepAliveClient {
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

  constructor(
    private readonly baseUrl: string,
    private readonly headers: Record<string, string> = {},
  ) {}

  get(path: string): Promise<{ status: number; body: Buffer }> {
    return this.request("GET", path);
  }

  post(path: string, json: unknown): Promise<{ status: number; body: Buffer }> {
    return this.request("POST", path, JSON.stringify(json));
  }

  request(method: string, path: string, body?: string): Promise<{ status: number; body: Buffer }> {
    return new Promise((resolve, reject) => {
      const headers = body === undefined ? this.headers : { ...this.headers, "content-type": "application/json" };
      const req = http.request(`${this.baseUrl}${path}`, { method, agent: this.agent, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
        res.on("error", reject);
      });
      req.on("error", reject);
      req.end(body);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}
