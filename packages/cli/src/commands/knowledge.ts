import { resolve } from "node:path";
import { ROUTES } from "@coffer/protocol";
import type { Command } from "commander";
import { CliError, type DaemonClient } from "../client.js";
import { print, printJson } from "../output.js";

export function registerKnowledge(program: Command, client: () => DaemonClient): void {
  const kb = program.command("kb").description("knowledge bases: imported documents agents search with coffer__search_knowledge");

  kb.command("ls")
    .description("list knowledge bases")
    .option("--json", "print JSON")
    .action(async (opts: { json?: boolean }) => {
      const out = await client().call(ROUTES.listKnowledgeBases);
      if (opts.json) return printJson(out);
      if (!out.knowledge_bases.length) print("no knowledge bases\n");
      for (const b of out.knowledge_bases) print(`${b.name.padEnd(24)} ${String(b.documents).padStart(5)} docs ${String(b.chunks).padStart(7)} chunks  ${b.id}\n`);
    });

  kb.command("create <name>")
    .description("create a knowledge base")
    .option("-d, --description <text>", "what it holds")
    .option("--json", "print JSON")
    .action(async (name: string, opts: { description?: string; json?: boolean }) => {
      const base = await client().call(ROUTES.createKnowledgeBase, { body: { name, ...(opts.description ? { description: opts.description } : {}) } });
      if (opts.json) return printJson(base);
      print(`${base.id}\n`);
    });

  kb.command("import <kb> <path>")
    .description("import a file or folder (markdown, text, code), printing progress")
    .option("--json", "print the finished import as JSON")
    .action(async (ref: string, path: string, opts: { json?: boolean }) => {
      const c = client();
      let job = await c.call(ROUTES.startImport, { params: { kb: ref }, body: { path: resolve(path) } });
      // Progress goes to a terminal's stderr only, so stdout stays the result.
      const live = !opts.json && process.stderr.isTTY;
      let shown = -1;
      while (true) {
        if (live && job.done !== shown) {
          shown = job.done;
          process.stderr.write(`\rimporting ${job.done}/${job.total}`);
        }
        if (job.status === "done" || job.status === "failed") break;
        // The daemon publishes progress on the job; ask again shortly.
        await new Promise((r) => setTimeout(r, 100));
        job = await c.call(ROUTES.getImportJob, { params: { job: job.id } });
      }
      if (live) process.stderr.write("\n");
      if (opts.json) printJson(job);
      else {
        print(`imported ${job.imported} of ${job.total} files\n`);
        for (const s of job.skipped) print(`skipped  ${s.filename}: ${s.reason}\n`);
      }
      if (job.status === "failed") throw new CliError("IMPORT_FAILED", job.error ?? "the import failed");
    });

  kb.command("docs <kb>")
    .description("list a knowledge base's documents")
    .option("--json", "print JSON")
    .action(async (ref: string, opts: { json?: boolean }) => {
      const out = await client().call(ROUTES.listDocuments, { params: { kb: ref } });
      if (opts.json) return printJson(out);
      for (const d of out.documents) print(`${d.id}  ${String(d.chunks).padStart(4)} chunks  ${d.filename}\n`);
    });

  kb.command("search <query>")
    .description("search knowledge (BM25)")
    .option("--kb <kb>", "only this knowledge base")
    .option("-k, --top <n>", "how many (default 5)", "5")
    .option("--json", "print JSON")
    .action(async (query: string, opts: { kb?: string; top: string; json?: boolean }) => {
      const out = await client().call(ROUTES.searchKnowledge, { query: { q: query, top_k: opts.top, kb: opts.kb } });
      if (opts.json) return printJson(out);
      if (!out.hits.length) print("no matches\n");
      for (const h of out.hits) print(`${h.score.toFixed(2).padStart(6)}  ${h.kb}/${h.filename}#${h.chunk}  ${h.snippet.replace(/\s+/g, " ")}\n`);
    });

  kb.command("rm <kb>")
    .description("delete a knowledge base and its documents")
    .action(async (ref: string) => {
      await client().call(ROUTES.deleteKnowledgeBase, { params: { kb: ref } });
      print(`deleted ${ref}\n`);
    });
}
