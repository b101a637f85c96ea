/**
 * A fake OpenAI-compatible transcription server: real HTTP on 127.0.0.1, parses the multipart
 * body with the platform's own parser (Request.formData), answers a scripted transcript and
 * records every request so tests can check what left the daemon.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface FakeTranscriptionRequest {
  readonly path: string;
  readonly authorization: string | null;
  readonly model: string | null;
  readonly language: string | null;
  readonly fileName: string | null;
  readonly fileType: string | null;
  readonly fileBytes: number;
}

export type FakeTranscriptionAnswer = { readonly text: string } | { readonly status: number; readonly body: string };

export interface FakeTranscriptionOptions {
  /** When set, requests without `Bearer <apiKey>` get OpenAI's 401. */
  readonly apiKey?: string;
  /** A promise holds the answer back (a slow server) until it settles. */
  readonly answer?: (request: FakeTranscriptionRequest) => FakeTranscriptionAnswer | Promise<FakeTranscriptionAnswer>;
}

export interface FakeTranscription {
  readonly baseUrl: string;
  readonly requests: FakeTranscriptionRequest[];
  close(): Promise<void>;
}

export async function startFakeTranscription(options: FakeTranscriptionOptions = {}): Promise<FakeTranscription> {
  const requests: FakeTranscriptionRequest[] = [];
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const send = (status: number, body: string): void => {
      res.writeHead(status, { "content-type": "application/json" }).end(body);
    };
    if (req.method !== "POST" || req.url !== "/v1/audio/transcriptions") return send(404, JSON.stringify({ error: { message: "not found" } }));
    const form = await new Request("http://fake/", {
      method: "POST",
      headers: { "content-type": req.headers["content-type"] ?? "" },
      body: Buffer.concat(chunks),
    })
      .formData()
      .catch(() => null);
    const file = form?.get("file");
    const field = (name: string): string | null => {
      const value = form?.get(name);
      return typeof value === "string" ? value : null;
    };
    const recorded: FakeTranscriptionRequest = {
      path: req.url,
      authorization: req.headers.authorization ?? null,
      model: field("model"),
      language: field("language"),
      fileName: file instanceof File ? file.name : null,
      fileType: file instanceof File ? file.type : null,
      fileBytes: file instanceof File ? file.size : 0,
    };
    requests.push(recorded);
    if (options.apiKey && recorded.authorization !== `Bearer ${options.apiKey}`) {
      return send(401, JSON.stringify({ error: { message: `Incorrect API key provided: ${recorded.authorization?.slice(7) ?? ""}` } }));
    }
    if (!(file instanceof File) || !recorded.model) return send(400, JSON.stringify({ error: { message: "file and model are required" } }));
    const answer = (await options.answer?.(recorded)) ?? { text: " hello from the fake " };
    if ("text" in answer) return send(200, JSON.stringify({ text: answer.text }));
    send(answer.status, answer.body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
