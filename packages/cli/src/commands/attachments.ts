import { createWriteStream } from "node:fs";
import { resolve } from "node:path";
import { pipeline } from "node:stream/promises";
import { humanSize } from "@coffer/protocol";
import type { Command } from "commander";
import { CliError, type DaemonClient } from "../client.js";
import { print } from "../output.js";

/** `coffer attachment get <id>`: saves a file from a thread (one the owner sent, or one an agent shared). */
export function registerAttachments(program: Command, client: () => DaemonClient): void {
  const attachment = program.command("attachment").description("files sent with messages or shared by the agents");
  attachment
    .command("get <id>")
    .description("download an attachment (its id is in `chat show` and the live transcript) into the current folder, or to -o")
    .option("-o, --output <file>", "where to write it (default: its own name, in the current folder)")
    .option("--force", "overwrite the file when it exists")
    .action(async (id: string, opts: { output?: string; force?: boolean }) => {
      let written = "";
      let bytes = 0;
      await client().download(id, async (name, body) => {
        written = resolve(opts.output ?? name);
        // `wx` refuses an existing file atomically: nothing the owner has is overwritten unasked.
        const file = createWriteStream(written, { flags: opts.force ? "w" : "wx", mode: 0o600 });
        const opened = new Promise<void>((ok, fail) => {
          file.once("open", () => ok());
          file.once("error", fail);
        });
        try {
          await opened;
        } catch (err) {
          const code = (err as NodeJS.ErrnoException).code;
          if (code === "EEXIST") throw new CliError("USAGE", `${written} exists; pass --force to overwrite it (or -o another file)`);
          throw new CliError("USAGE", `cannot write ${written}: ${code ?? String(err)}`);
        }
        body.on("data", (chunk: Buffer) => (bytes += chunk.length));
        await pipeline(body, file);
      });
      print(`saved ${written} (${humanSize(bytes)})\n`);
    });
}
