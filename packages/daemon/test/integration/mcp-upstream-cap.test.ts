/**
 * Issue 21, W4: an HTTP MCP upstream's answer was read whole — 400 MB of answer grew the
 * daemon to 2.2 GB and kept /health silent for 30 s. The attack: a hostile upstream whose tool
 * answer never ends, called through the gateway's /mcp with a real MCP client, while /health is
 * asked again and again. The daemon runs in this process, so its memory is this process's.
 */
import { expect } from "vitest";
import { gatewayClient, serverStatus, textOf } from "../fixtures/mcp/gateway-client.js";
import { HostileHttpUpstream } from "../fixtures/mcp/hostile-http-upstream.js";
import { acceptance } from "../support/acceptance.js";
import { startTestDaemon } from "../support/test-daemon.js";
import { TOOL_RESULT_MAX_CHARS } from "../../src/application/gateway/result-cap.js";

const MiB = 1024 * 1024;

acceptance(
  "021-hardening",
  "an HTTP MCP upstream's oversized answer is cut at a byte cap without growing the daemon's memory, and tool results handed to agents are capped",
  async () => {
    const upstream = await HostileHttpUpstream.start({ floodBytes: 400 * MiB, bigChars: 3 * MiB });
    const t = await startTestDaemon();
    try {
      expect((await t.api.post("/mcp/servers", { name: "hostile", transport: "http", url: upstream.url })).status).toBe(201);
      await serverStatus(t.api, "hostile", "ready");
      const client = await gatewayClient(t.daemon.url, t.daemon.token);

      // An ordinary result larger than an agent should be handed: cut, and the cut is named.
      const big = textOf(await client.callTool({ name: "hostile__big", arguments: {} }));
      expect(big.length).toBeLessThan(TOOL_RESULT_MAX_CHARS + 200); // the cut text and its note
      expect(big).toMatch(/Coffer cut this tool result/);

      global.gc?.();
      const rssBefore = process.memoryUsage().rss;
      let slowestHealthMs = 0;
      let healthAnswers = 0;
      let calling = true;
      const health = (async () => {
        while (calling) {
          const started = performance.now();
          const res = await fetch(`${t.daemon.url}/health`);
          await res.arrayBuffer();
          slowestHealthMs = Math.max(slowestHealthMs, performance.now() - started);
          healthAnswers += 1;
        }
      })();
      const flood = await client.callTool({ name: "hostile__flood", arguments: {} }).finally(() => (calling = false));
      await health;
      await upstream.floodEnded;
      const rssGrowth = process.memoryUsage().rss - rssBefore;

      expect(flood.isError).toBe(true);
      expect(textOf(flood)).toMatch(/larger than 10 MB and was cut/);
      // The flood stopped soon after the cap: the daemon hung up instead of reading on.
      expect(upstream.floodWritten).toBeLessThan(100 * MiB);
      expect(rssGrowth).toBeLessThan(150 * MiB);
      expect(healthAnswers).toBeGreaterThan(0);
      expect(slowestHealthMs).toBeLessThan(2_000);
      await client.close();
    } finally {
      await t.close();
      await upstream.close();
    }
  },
  60_000,
);
