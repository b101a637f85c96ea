import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";

export function skillMd(name: string, description: string, body = `# ${name}\n\nDo the thing step by step.\n`): string {
  return `---\nname: ${name}\ndescription: ${description}\n---\n${body}`;
}

/** Writes a skill folder; `content` null leaves the folder without a SKILL.md. */
export async function writeSkill(root: string, folder: string, content: string | null, extra: Record<string, string> = {}): Promise<void> {
  const dir = join(root, folder);
  await mkdir(dir, { recursive: true });
  if (content !== null) await writeFile(join(dir, "SKILL.md"), content);
  for (const [name, text] of Object.entries(extra)) {
    await mkdir(join(dir, name, ".."), { recursive: true });
    await writeFile(join(dir, name), text);
  }
}

/** Writes files under a root: { "a/b.md": "text" }. */
export async function writeTree(root: string, files: Record<string, string | Buffer>): Promise<void> {
  for (const [name, content] of Object.entries(files)) {
    await mkdir(join(root, name, ".."), { recursive: true });
    await writeFile(join(root, name), content);
  }
}
