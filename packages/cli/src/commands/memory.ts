import { resolve } from "node:path";
import { ROUTES, type MemoryFactOut } from "@coffer/protocol";
import type { Command } from "commander";
import type { DaemonClient } from "../client.js";
import { print, printJson, summarise } from "../output.js";

function factLine(f: MemoryFactOut): string {
  const where = f.scope === "global" ? "global" : `project ${f.project}`;
  return `${f.id}  ${f.type.padEnd(10)} ${summarise(f.text, 70).padEnd(70)}  [${where}]`;
}

export function registerMemory(program: Command, client: () => DaemonClient): void {
  const memory = program.command("memory").description("facts your agents remember (coffer__remember / coffer__recall)");

  memory
    .command("ls")
    .description("list facts, newest first")
    .option("--global", "only global facts")
    .option("--project <dir>", "only this project's facts")
    .option("-n, --limit <n>", "how many (default 100)", "100")
    .option("--json", "print JSON")
    .action(async (opts: { global?: boolean; project?: string; limit: string; json?: boolean }) => {
      const scope = opts.global ? { scope: "global" } : opts.project ? { scope: "project", project: resolve(opts.project) } : {};
      const page = await client().call(ROUTES.listMemory, { query: { limit: opts.limit, ...scope } });
      if (opts.json) return printJson(page);
      if (!page.facts.length) print("no facts\n");
      for (const f of page.facts) print(`${factLine(f)}\n`);
      if (page.total > page.facts.length) print(`(${page.total - page.facts.length} more; use --limit)\n`);
    });

  memory
    .command("add <text>")
    .description("remember a fact (global unless --project)")
    .option("--project <dir>", "tie it to a project's working directory")
    .option("-t, --type <type>", "a kind: fact, preference, decision…")
    .option("--name <name>", "a short title")
    .option("--json", "print JSON")
    .action(async (text: string, opts: { project?: string; type?: string; name?: string; json?: boolean }) => {
      const fact = await client().call(ROUTES.createMemory, {
        body: {
          text,
          ...(opts.project ? { project: resolve(opts.project) } : {}),
          ...(opts.type ? { type: opts.type } : {}),
          ...(opts.name ? { name: opts.name } : {}),
        },
      });
      if (opts.json) return printJson(fact);
      print(`${fact.id}\n`);
    });

  memory
    .command("search <query>")
    .description("recall facts (BM25)")
    .option("--project <dir>", "also search this project's facts")
    .option("-k, --top <n>", "how many (default 5)", "5")
    .option("--json", "print JSON")
    .action(async (query: string, opts: { project?: string; top: string; json?: boolean }) => {
      const project = opts.project ? resolve(opts.project) : undefined;
      const out = await client().call(ROUTES.searchMemory, { query: { q: query, top_k: opts.top, project } });
      if (opts.json) return printJson(out);
      if (!out.hits.length) print("no matches\n");
      for (const h of out.hits) print(`${h.id}  ${h.score.toFixed(2).padStart(6)}  ${summarise(h.text, 80)}  [${h.source}]\n`);
    });

  memory
    .command("edit <id> <text>")
    .description("replace a fact's text")
    .option("--json", "print JSON")
    .action(async (id: string, text: string, opts: { json?: boolean }) => {
      const fact = await client().call(ROUTES.updateMemory, { params: { id }, body: { text } });
      if (opts.json) return printJson(fact);
      print(`updated ${fact.id}\n`);
    });

  memory
    .command("rm <id>")
    .description("forget a fact")
    .action(async (id: string) => {
      await client().call(ROUTES.deleteMemory, { params: { id } });
      print(`forgotten ${id}\n`);
    });
}
