import net from "node:net";

export interface TcpProxyOptions {
  /**
   * Called for each new connection: after how many bytes from the server the proxy resets
   * it (mid-frame, wherever that byte falls), or null to leave it alone. Server-side drops,
   * the way a network blip or an idle proxy cuts a stream the client is reading.
   */
  readonly cutAfterBytes?: () => number | null;
}

/**
 * A loopback TCP relay in front of the daemon, so a test can cut live connections the
 * way a network blip or an idle proxy does (the client sees a reset, not a clean end).
 */
export async function startTcpProxy(
  targetPort: number | (() => number),
  options: TcpProxyOptions = {},
): Promise<{ port: number; url: string; readonly cuts: number; dropAll(): number; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  let cuts = 0;
  const server = net.createServer((client) => {
    const upstream = net.connect(typeof targetPort === "number" ? targetPort : targetPort(), "127.0.0.1");
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on("close", () => sockets.delete(s));
      s.on("error", () => undefined); // a reset is what the test is for
    }
    client.pipe(upstream);
    let budget = options.cutAfterBytes?.() ?? null;
    if (budget === null) upstream.pipe(client);
    else {
      upstream.on("data", (chunk: Buffer) => {
        if (budget === null) return;
        if (chunk.length < budget) {
          budget -= chunk.length;
          client.write(chunk);
          return;
        }
        // Deliver the bytes up to the cut (a partial frame) and reset both sides.
        client.write(chunk.subarray(0, budget), () => {
          client.resetAndDestroy();
          upstream.destroy();
        });
        budget = null;
        cuts += 1;
      });
    }
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as net.AddressInfo).port;
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    get cuts() {
      return cuts;
    },
    dropAll() {
      const n = sockets.size;
      for (const s of sockets) s.resetAndDestroy();
      return n;
    },
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}
