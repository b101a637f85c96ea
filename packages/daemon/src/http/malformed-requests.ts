import type { Server } from "node:http";
import type { Duplex } from "node:stream";
import { httpStatusOf, type ErrorCode } from "@coffer/protocol";
import { envelope } from "./errors.js";

/**
 * Requests Node's HTTP parser rejects (a URL or headers over its 16 KiB limit, broken
 * framing) never reach Hono, and Node's own answer has no body. Answer them in the
 * error envelope too, so a client can always read `{error:{code,message,details}}`.
 */
export function answerMalformedRequests(server: Server): void {
  server.on("clientError", (err: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Duplex) => {
    if (err.code === "ECONNRESET" || !socket.writable) {
      socket.destroy();
      return;
    }
    const [reason, code, message]: [string, ErrorCode, string] =
      err.code === "HPE_HEADER_OVERFLOW"
        ? ["Request Header Fields Too Large", "HEADERS_TOO_LARGE", "the request line and headers are limited to 16 KiB"]
        : err.code === "ERR_HTTP_REQUEST_TIMEOUT"
          ? ["Request Timeout", "REQUEST_TIMEOUT", "the request did not arrive in time"]
          : ["Bad Request", "MALFORMED_REQUEST", "the request is not valid HTTP"];
    const status = httpStatusOf(code);
    const body = JSON.stringify(envelope(code, message));
    // An answer to HEAD carries no body (a client would read one as garbage on the wire).
    const head = err.rawPacket?.toString("latin1", 0, 5) === "HEAD ";
    socket.end(
      `HTTP/1.1 ${status} ${reason}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${head ? "" : body}`,
    );
  });
}
