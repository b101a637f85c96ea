import { resolve } from "node:path";
import { ROUTES } from "@coffer/protocol";
import type { Command } from "commander";
import type { DaemonClient } from "../client.js";
import { print, printJson } from "../output.js";

export function registerSkills(program: Command, client: () => DaemonClient): void {
  const skills = program.command("skills").description("skills: folders with a SKILL.md that agents load through coffer__load_skill");

  skills
    .command("ls")
    .description("list skills; a malformed one is shown with its problem")
    .option("--json", "print JSON")
    .action(async (opts: { json?: boolean }) => {
      const { skills: all } = await client().call(ROUTES.listSkills);
      if (opts.json) return printJson({ skills: all });
      if (!all.length) print("no skills\n");
      for (const s of all) {
        print(s.problem ? `${s.folder.padEnd(24)} ✗ ${s.problem}\n` : `${(s.name ?? s.folder).padEnd(24)} ${s.description}\n`);
      }
    });

  skills
    .command("show <name>")
    .description("print a skill's SKILL.md")
    .option("--json", "print JSON")
    .action(async (name: string, opts: { json?: boolean }) => {
      const skill = await client().call(ROUTES.getSkill, { params: { name } });
      if (opts.json) return printJson(skill);
      print(skill.content.endsWith("\n") ? skill.content : `${skill.content}\n`);
    });

  skills
    .command("import <path>")
    .description("copy a skill folder, or every skill folder inside a folder, into the vault")
    .option("--overwrite", "replace skills that already exist")
    .option("--json", "print JSON")
    .action(async (path: string, opts: { overwrite?: boolean; json?: boolean }) => {
      const report = await client().call(ROUTES.importSkills, { body: { path: resolve(path), overwrite: opts.overwrite ?? false } });
      if (opts.json) return printJson(report);
      for (const s of report.imported) print(`imported ${s.name}\n`);
      for (const s of report.skipped) print(`skipped  ${s.folder}: ${s.problem}\n`);
      if (!report.imported.length && !report.skipped.length) print("no skill folders found\n");
    });

  skills
    .command("rm <name>")
    .description("remove a skill folder")
    .action(async (name: string) => {
      await client().call(ROUTES.deleteSkill, { params: { name } });
      print(`removed ${name}\n`);
    });
}
