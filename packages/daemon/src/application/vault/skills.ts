import type { SkillCreate, SkillDetailOut, SkillImportOut, SkillListOut, SkillOut } from "@coffer/protocol";
import { SkillExists, SkillInvalid, SkillNotFound } from "../../domain/vault-errors.js";
import type { AuditSink } from "../audit-log.js";
import type { Clock } from "../ports.js";
import { SKILL_FILE_MISSING, type SkillEntry, type SkillLibrary, type UploadedFile } from "./vault-ports.js";

/** What `load` found for a name: the skill, or the problem to tell the agent. */
export type SkillLookup = { readonly ok: true; readonly name: string; readonly content: string } | { readonly ok: false; readonly error: string };

/** Skills use cases: the catalogue the agents see, and the owner's view of every folder. */
export class SkillService {
  constructor(
    private readonly library: SkillLibrary,
    /** Imports read the owner's files and removals delete folders: both are audited (owner only, via REST). */
    private readonly audit: AuditSink,
    private readonly clock: Clock,
  ) {}

  /** Every folder, with the problem that keeps a folder out of the catalogue. */
  private async all(): Promise<SkillEntry[]> {
    const entries = await this.library.list();
    const seen = new Set<string>();
    // Two folders may claim one name; the first (by folder) wins so the catalogue stays unambiguous.
    return entries.map((e) => {
      if (e.problem || e.name === null) return e;
      if (seen.has(e.name)) return { ...e, problem: `another skill folder already uses the name '${e.name}'` };
      seen.add(e.name);
      return e;
    });
  }

  /** The catalogue agents get: valid skills only. */
  async catalogue(): Promise<{ name: string; description: string }[]> {
    return (await this.all()).filter(isValid).map((e) => ({ name: e.name, description: e.description }));
  }

  /** coffer__load_skill: never throws, so the agent reads the problem. */
  async load(rawName: string | undefined): Promise<SkillLookup> {
    const name = rawName?.trim() ?? "";
    if (!name) return { ok: false, error: "load_skill requires a non-empty 'name' argument (see coffer__list_skills)" };
    const entries = await this.all();
    const entry = entries.find((e) => isValid(e) && e.name === name) ?? entries.find((e) => e.folder === name);
    if (!entry) return { ok: false, error: `skill not found: '${name}'` };
    if (entry.problem === SKILL_FILE_MISSING) return { ok: false, error: `SKILL.md missing for skill: '${name}'` };
    if (entry.problem) return { ok: false, error: `skill '${name}' is not usable: ${entry.problem}` };
    const content = await this.library.read(entry.folder);
    if (content === null) return { ok: false, error: `SKILL.md missing for skill: '${name}'` };
    return { ok: true, name: entry.name ?? name, content };
  }

  async list(): Promise<SkillListOut> {
    return { skills: (await this.all()).map(toSkillOut) };
  }

  /** The owner's view of one skill by name or folder; a folder with a problem still shows its text. */
  async get(ref: string): Promise<SkillDetailOut> {
    const entries = await this.all();
    const entry = entries.find((e) => isValid(e) && e.name === ref) ?? entries.find((e) => e.folder === ref);
    if (!entry) throw new SkillNotFound(ref);
    const content = await this.library.read(entry.folder);
    if (content === null) throw new SkillInvalid(entry.folder, SKILL_FILE_MISSING);
    return { ...toSkillOut(entry), content };
  }

  async import(path: string, overwrite = false): Promise<SkillImportOut> {
    const report = await this.library.importFrom(path, overwrite);
    this.audit("user", "skill_imported", { path, overwrite, imported: report.imported.map((e) => e.folder), skipped: report.skipped.length }, this.clock.now());
    return { imported: report.imported.map(toSkillOut), skipped: report.skipped };
  }

  /** Skill folders uploaded from the page: the same report as an import by path. */
  async upload(files: readonly UploadedFile[], overwrite = false): Promise<SkillImportOut> {
    const report = await this.library.importUploaded(files, overwrite);
    this.audit("user", "skill_imported", { upload: true, files: files.length, overwrite, imported: report.imported.map((e) => e.folder), skipped: report.skipped.length }, this.clock.now());
    return { imported: report.imported.map(toSkillOut), skipped: report.skipped };
  }

  /** A skill written in the page; its name must be free (folder and catalogue name alike). */
  async create(input: SkillCreate): Promise<SkillDetailOut> {
    const taken = (await this.all()).some((e) => e.folder === input.name || e.name === input.name);
    if (taken || !(await this.library.create(input.name, input.description, input.body))) throw new SkillExists(input.name);
    this.audit("user", "skill_created", { name: input.name }, this.clock.now());
    return this.get(input.name);
  }

  async remove(ref: string): Promise<void> {
    const entries = await this.all();
    const entry = entries.find((e) => isValid(e) && e.name === ref) ?? entries.find((e) => e.folder === ref);
    if (!entry || !(await this.library.remove(entry.folder))) throw new SkillNotFound(ref);
    this.audit("user", "skill_removed", { folder: entry.folder, name: entry.name }, this.clock.now());
  }
}

function isValid(e: SkillEntry): e is SkillEntry & { name: string; description: string } {
  return e.problem === null && e.name !== null && e.description !== null;
}

function toSkillOut(e: SkillEntry): SkillOut {
  return { folder: e.folder, name: e.name, description: e.description, problem: e.problem };
}
