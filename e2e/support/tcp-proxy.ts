import net from "node:net";

/**
 * A loopback TCP relay in front of the daemon, so a test can cut live connections the
 * way a network blip or an idle proxy does (the browser sees a reset, not a clean end).
 */
export async function startTcpProxy(targetPort: number | (() => number)): Promise<{ port: number; url: string; dropAll(): number; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(typeof targetPort === "number" ? targetPort : targetPort(), "127.0.0.1");
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on("close", () => sockets.delete(s));
      s.on("error", () => undefined); // a reset is what the test is for
    }
    client.pipe(upstream);
    upstream.pipe(client);
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as net.AddressInfo).port;
  return {
    port,
    url: `http://127.0.0.1:${port}`,
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
