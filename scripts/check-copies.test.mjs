import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, expect, test } from "vitest";
import { checkCopies, countedLines, scan, substantivePairs } from "./check-copies.mjs";

const dirs = [];
function tree(files) {
  const root = mkdtempSync(join(tmpdir(), "copies-"));
  dirs.push(root);
  for (const [path, body] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), body);
  }
  return root;
}
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

function pairsIn(root) {
  const readLines = (name) => readFileSync(join(root, name), "utf8").split("\n");
  return substantivePairs(scan(root, ["--ignore-identifiers"]), scan(root), readLines);
}

/** Eight lines of logic; `rename` gives each copy its own names, as a copy-paste-edit does. */
const logic = (rename) => `
export function ${rename}Total(items: { price: number; count: number }[], tax: number): number {
  let ${rename}Sum = 0;
  for (const item of items) {
    if (item.count <= 0) continue;
    ${rename}Sum += item.price * item.count;
  }
  const ${rename}Taxed = ${rename}Sum * (1 + tax);
  return Math.round(${rename}Taxed * 100) / 100;
}
`;

test("a source block copied with its names changed is a substantive pair", () => {
  const root = tree({ "a/src/one.ts": logic("first"), "a/src/two.ts": logic("second") });
  const pairs = pairsIn(root);
  expect(pairs).toHaveLength(1);
  expect([pairs[0].firstFile.name, pairs[0].secondFile.name].sort()).toEqual(["a/src/one.ts", "a/src/two.ts"]);
});

test("in tests and the protocol only an exact copy counts: the same arrangement with other names does not", () => {
  expect(pairsIn(tree({ "a/test/one.test.ts": logic("first"), "a/test/two.test.ts": logic("second") }))).toEqual([]);
  expect(pairsIn(tree({ "a/test/one.test.ts": logic("same"), "a/test/two.test.ts": logic("same") }))).toHaveLength(1);
  expect(pairsIn(tree({ "protocol/src/one.ts": logic("first"), "protocol/src/two.ts": logic("second") }))).toEqual([]);
});

test("lines that only declare (imports, zod fields, interface members, route tables, API calls), test hooks and closing brackets are not counted", () => {
  expect(
    countedLines([
      'import { a } from "./a.js";',
      "import {",
      "  b,",
      "  type C,",
      '} from "./b.js";',
      "  name: z.string().min(1),",
      '  "created_at": z.string(),',
      "let t: TestDaemon;",
      "beforeAll(async () => {",
      "afterAll(() => t.close());",
      "  });",
      "  readonly store: ConnectionStore;",
      "  findByName(name: string): Connection | null;",
      "  transaction<T>(fn: () => T): T;",
      "    .route(ROUTES.getChannel, ({ params }) => channels.get(params.id))",
      "  forget = (id: string) => this.api.call(ROUTES.deleteMemory, { params: { id } });",
      "",
      "// why",
      "const total = a + b;",
    ]),
  ).toEqual(["const total = a + b;"]);
});

test("the check fails past its line and names each pair with its lines", () => {
  const root = tree({ "a/src/one.ts": logic("first"), "a/src/two.ts": logic("second"), "a/src/three.ts": "export const x = 1;\n" });
  expect(checkCopies(root, 1)).toEqual({ pairs: [expect.stringMatching(/^a\/src\/(one|two)\.ts:\d+-\d+ {2}~ {2}a\/src\/(one|two)\.ts:\d+-\d+ {2}\(\d+ lines\)$/)], ok: true });
  expect(checkCopies(root, 0).ok).toBe(false);
});
