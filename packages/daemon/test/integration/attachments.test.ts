import http from "node:http";
import { statSync, readdirSync, existsSync } from "node:fs";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { acceptance } from "../support/acceptance.js";
import { startTestDaemon, type TestDaemon } from "../support/test-daemon.js";

const SPEC = "025-attachments";
const PNG = Buffer.from("89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082", "hex");

let t: TestDaemon | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/** One raw upload, as the page and the CLI send it. */
async function upload(d: TestDaemon, name: string, mediaType: string | null, bytes: Buffer) {
  const res = await fetch(`${d.daemon.url}/api/v1/attachments?name=${encodeURIComponent(name)}`, {
    method: "POST",
    headers: { authorization: `Bearer ${d.daemon.token}`, ...(mediaType ? { "content-type": mediaType } : {}) },
    body: bytes,
  });
  return { status: res.status, body: (await res.json()) as any };
}

function blobFiles(home: string): string[] {
  const root = join(home, "attachments");
  if (!existsSync(root)) return [];
  return readdirSync(root, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

describe("attachments: stored once, described, served safely", () => {
  acceptance(SPEC, "an uploaded file is stored once by its content hash in the data dir with private modes", async () => {
    t = await startTestDaemon();
    const first = await upload(t, "shot.png", "image/png", PNG);
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ name: "shot.png", media_type: "image/png", size: PNG.length });
    // The same bytes again under another name: a second row, one blob.
    const again = await upload(t, "again.png", "image/PNG; charset=binary", PNG);
    expect(again.status).toBe(201);
    expect(again.body.id).not.toBe(first.body.id);
    expect(again.body.media_type).toBe("image/png");
    const sha = createHash("sha256").update(PNG).digest("hex");
    const blob = join(t.home, "attachments", sha.slice(0, 2), sha);
    expect(blobFiles(t.home)).toEqual([blob]);
    expect(statSync(blob).mode & 0o777).toBe(0o600);
    expect(statSync(join(t.home, "attachments")).mode & 0o777).toBe(0o700);
    expect(statSync(join(t.home, "attachments", sha.slice(0, 2))).mode & 0o777).toBe(0o700);
  });

  acceptance(SPEC, "downloads carry a safe content type and Content-Disposition: images inline, SVG and HTML only ever as a download", async () => {
    t = await startTestDaemon();
    const png = await upload(t, "shot.png", "image/png", PNG);
    const svg = await upload(t, "chart.svg", "image/svg+xml", Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'));
    const html = await upload(t, "rapport é.html", "text/html", Buffer.from("<script>alert(1)</script>"));
    const get = (id: string) => fetch(`${t!.daemon.url}/api/v1/attachments/${id}`, { headers: { authorization: `Bearer ${t!.daemon.token}` } });

    const image = await get(png.body.id);
    expect(image.status).toBe(200);
    expect(image.headers.get("content-type")).toBe("image/png");
    expect(image.headers.get("content-disposition")).toBe(`inline; filename="shot.png"; filename*=UTF-8''shot.png`);
    expect(image.headers.get("x-content-type-options")).toBe("nosniff");
    expect(Buffer.from(await image.arrayBuffer())).toEqual(PNG);

    for (const [res, name] of [
      [await get(svg.body.id), "chart.svg"],
      [await get(html.body.id), "rapport é.html"],
    ] as const) {
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("application/octet-stream");
      expect(res.headers.get("content-disposition")).toMatch(/^attachment; /);
      expect(res.headers.get("content-disposition")).toContain(`filename*=UTF-8''${encodeURIComponent(name)}`);
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(res.headers.get("content-security-policy")).toContain("default-src 'none'");
      await res.arrayBuffer();
    }
    expect((await upload(t, "x.html", "text/html", Buffer.from("x"))).status).toBe(201);
    const missing = await get("nope");
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as any).error.code).toBe("ATTACHMENT_NOT_FOUND");
  });

  acceptance(SPEC, "a file over the attachment cap is refused with ATTACHMENT_TOO_LARGE and nothing is kept", async () => {
    t = await startTestDaemon({ attachmentMaxBytes: 1024 * 1024 });
    const over = await upload(t, "big.bin", "application/octet-stream", Buffer.alloc(1024 * 1024 + 1, 7));
    expect(over.status).toBe(413);
    expect(over.body.error.code).toBe("ATTACHMENT_TOO_LARGE");
    expect(over.body.error.details.limit_bytes).toBe(1024 * 1024);
    expect(blobFiles(t.home)).toEqual([]);
    // Exactly at the cap is fine.
    expect((await upload(t, "edge.bin", "application/octet-stream", Buffer.alloc(1024 * 1024, 7))).status).toBe(201);
  });

  test("GET /attachments/limits tells clients the cap (not mistaken for an attachment id)", async () => {
    t = await startTestDaemon({ attachmentMaxBytes: 1024 * 1024 });
    const res = await fetch(`${t.daemon.url}/api/v1/attachments/limits`, { headers: { authorization: `Bearer ${t.daemon.token}` } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ max_bytes: 1024 * 1024 });
  });

  test("a chunked upload (no Content-Length) is stored whole, and refused past the cap all the same", async () => {
    t = await startTestDaemon({ attachmentMaxBytes: 1024 * 1024 });
    const chunked = (bytes: Buffer) =>
      new Promise<{ status: number; body: any }>((resolve, reject) => {
        const url = new URL(`${t!.daemon.url}/api/v1/attachments?name=stream.bin`);
        const req = http.request(url, { method: "POST", headers: { authorization: `Bearer ${t!.daemon.token}`, "content-type": "application/octet-stream" } }, (res) => {
          let text = "";
          res.on("data", (c) => (text += c));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
        });
        req.on("error", reject);
        // Several writes without a length: Node sends them chunked.
        for (let i = 0; i < bytes.length; i += 64 * 1024) req.write(bytes.subarray(i, i + 64 * 1024));
        req.end();
      });
    const fine = await chunked(Buffer.alloc(300 * 1024, 3));
    expect(fine.status).toBe(201);
    expect(fine.body.size).toBe(300 * 1024);
    const over = await chunked(Buffer.alloc(2 * 1024 * 1024, 4));
    expect(over.status).toBe(413);
    expect(over.body.error.code).toBe("ATTACHMENT_TOO_LARGE");
    expect(blobFiles(t.home)).toHaveLength(1);
  });

  test("an upload without a media type or without bytes is refused with its own code", async () => {
    t = await startTestDaemon();
    const untyped = await upload(t, "a.txt", "nonsense", Buffer.from("hello"));
    expect(untyped.status).toBe(415);
    expect(untyped.body.error.code).toBe("ATTACHMENT_TYPE_INVALID");
    const empty = await upload(t, "a.txt", "text/plain", Buffer.alloc(0));
    expect(empty.body.error.code).toBe("ATTACHMENT_EMPTY");
    const badName = await upload(t, "../a.txt", "text/plain", Buffer.from("x"));
    expect(badName.status).toBe(422);
    expect(blobFiles(t.home)).toEqual([]);
  });

  test("GET /system/stats counts uploads, the distinct files they are stored in and those files' bytes", async () => {
    t = await startTestDaemon();
    const stats = async () => (await t!.api.get("/system/stats")).body.attachments;
    expect(await stats()).toEqual({ count: 0, files: 0, bytes: 0 });
    await upload(t, "shot.png", "image/png", PNG);
    await upload(t, "again.png", "image/png", PNG); // the same bytes: a second row, no second file
    const log = Buffer.from("GET /login 500\n".repeat(100));
    await upload(t, "server.log", "text/plain", log);
    expect(await stats()).toEqual({ count: 3, files: 2, bytes: PNG.length + log.length });
    const onDisk = blobFiles(t.home).reduce((sum, f) => sum + statSync(f).size, 0);
    expect(onDisk).toBe(PNG.length + log.length);
  });
});
