/**
 * The surfaces a bench message leaves from, each sending what the owner's client sends: the page
 * (POST /attachments with the file, then POST …/messages naming it, over the daemon's HTTP) and
 * the CLI (the built `coffer chat send <id> --attach <file> <text>`, a process of its own). Each
 * resolves once the turn has ended, with the moment (performance.now()) the send began.
 *
 * The phone is the third surface: telegram-surface.ts (it needs a paired channel first).
 */
import { spawn } from "node:child_process";
import { basename } from "node:path";
import { fileURLToPath } from "node:url";
import { isTerminalEvent } from "@coffer/protocol";
import { SseSubscription } from "../../packages/daemon/test/support/http-client.js";
import { uploadFile } from "./upload-rss.js";

export interface BenchDaemon {
  readonly url: string;
  readonly token: string;
  readonly home: string;
}

export interface Surface {
  readonly name: string;
  /**
   * Sends `text` (carrying `image`, a file path, when given) and resolves when its turn has ended:
   * when the send began and, where the surface can see it, how long the upload alone took.
   */
  send(d: BenchDaemon, conversationId: string, text: string, image: string | null): Promise<{ startedAt: number; uploadMs?: number }>;
}

/** The built CLI (npm run build makes it). */
const CLI = fileURLToPath(new URL("../../packages/cli/dist/main.js", import.meta.url));

export const pageSurface: Surface = {
  name: "page",
  async send(d, id, text, image) {
    const sub = await SseSubscription.open(d.url, d.token, `/chat/conversations/${id}/events`);
    try {
      const startedAt = performance.now();
      const attachment_ids: string[] = [];
      let uploadMs: number | undefined;
      if (image) {
        const up = await uploadFile(d.url, d.token, image, basename(image), "image/png");
        if (up.status !== 201) throw new Error(`upload failed: ${up.status} ${JSON.stringify(up.body)}`);
        uploadMs = performance.now() - startedAt;
        attachment_ids.push(up.body.id as string);
      }
      const from = sub.events.length;
      const res = await fetch(`${d.url}/api/v1/chat/conversations/${id}/messages`, {
        method: "POST",
        headers: { authorization: `Bearer ${d.token}`, "content-type": "application/json" },
        body: JSON.stringify({ text, ...(attachment_ids.length ? { attachment_ids } : {}) }),
      });
      if (res.status !== 202) throw new Error(`send failed: ${res.status} ${await res.text()}`);
      const end = await sub.waitFor(isTerminalEvent, from);
      if (end.event.type !== "turn_done") throw new Error(`turn ended ${JSON.stringify(end.event)}`);
      return uploadMs === undefined ? { startedAt } : { startedAt, uploadMs };
    } finally {
      sub.close();
    }
  },
};

export const cliSurface: Surface = {
  name: "CLI",
  send(d, id, text, image) {
    const args = [CLI, "--url", d.url, "--token", d.token, "chat", "send", id, ...(image ? ["--attach", image] : []), text];
    return new Promise((resolve, reject) => {
      const startedAt = performance.now();
      const child = spawn(process.execPath, args, { env: { ...process.env, COFFER_HOME: d.home }, stdio: ["ignore", "ignore", "pipe"] });
      let stderr = "";
      child.stderr.setEncoding("utf8").on("data", (c: string) => (stderr += c));
      // `chat send` streams the reply and exits when the turn ends: 0 only for a finished turn.
      child.on("close", (code) => (code === 0 ? resolve({ startedAt }) : reject(new Error(`coffer chat send exited ${code}: ${stderr}`))));
    });
  },
};
