import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { stripDescriptions, stripSchemaDescriptions } from "../vite-plugins/strip-descriptions.js";

const strip = (code: string) => stripDescriptions(code)?.code.toString() ?? code;

describe("the page's build drops the protocol's schema descriptions", () => {
  it("drops a description given as a literal, quoted any way, on one line or several, joined with +", () => {
    expect(strip(`a: z.string().describe("As uploaded (lower case)."),`)).toBe(`a: z.string(),`);
    expect(strip(`s: z.string().describe('"global" or "project:<cwd>".'),`)).toBe(`s: z.string(),`);
    expect(strip(`t: z.number().describe(\`Bytes.\`).int(),`)).toBe(`t: z.number().int(),`);
    expect(strip(`d: D.optional().describe(\n      "queue (the default): runs \\"later\\".",\n    ),\n  n: z.number(),`)).toBe(`d: D.optional(),\n  n: z.number(),`);
    expect(strip(`x: z.boolean().describe("one, " +\n  "two; (three)")`)).toBe(`x: z.boolean()`);
  });

  it("leaves a description it cannot see whole (a template with a value in it, a name) and everything else", () => {
    const kept = [
      "glyph: z.string().describe(`one of ${GLYPHS.join(\", \")}`),",
      "x: z.string().describe(TEXT),",
      'describe("a test title", () => {})',
      'const text = "call .describe( later";',
    ];
    for (const code of kept) expect(stripDescriptions(code)).toBeNull();
  });

  it("applies to the protocol's own sources only, on the build", () => {
    const plugin = stripSchemaDescriptions();
    expect(plugin.apply).toBe("build");
    const transform = plugin.transform as (code: string, id: string) => { code: string } | null;
    const code = `export const A = z.string().describe("text");`;
    expect(transform(code, "/repo/packages/protocol/src/chat/attachments.ts")?.code).toBe(`export const A = z.string();`);
    expect(transform(code, "/repo/packages/web/src/chat/thread/x.ts")).toBeNull();
    expect(transform(code, "/repo/node_modules/zod/v4/core/schemas.js")).toBeNull();
  });

  it("takes every description out of the protocol's sources except the one built from a value", () => {
    const root = join(import.meta.dirname, "../../protocol/src");
    const left: string[] = [];
    let dropped = 0;
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) walk(path);
        else if (entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts")) {
          const stripped = stripDescriptions(readFileSync(path, "utf8"));
          dropped += stripped?.count ?? 0;
          const after = stripped?.code.toString() ?? readFileSync(path, "utf8");
          for (const m of after.matchAll(/\.describe\(\s*\S{0,40}/g)) left.push(`${entry.name}: ${m[0]}`);
        }
      }
    };
    walk(root);
    expect(dropped).toBeGreaterThan(200);
    expect(left).toEqual(["agents.ts: .describe(`The"]); // the glyph list, built from AGENT_GLYPHS
  });
});
