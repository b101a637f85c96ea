import { startAgentHarness } from "../../packages/daemon/test/fakes/agent-harness.js";
import { timeFirstDelta } from "./turn-timing.js";
const h = await startAgentHarness("claude_code");
const d = { url: h.daemon.daemon.url, token: h.daemon.daemon.token, api: h.daemon.api };
if (process.env.LOOK) { await h.daemon.api.get("/chat/agents"); await new Promise((r) => setTimeout(r, 2000)); }
const id = await h.conversation({ model: "claude-sonnet-4-5" });
console.log(process.env.LOOK ? "owner looked first" : "at once", (await timeFirstDelta(d, id, "first")).toFixed(0));
await h.close();
