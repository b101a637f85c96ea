import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, expect, test } from "vitest";
import { checkDependencies, findImportCycles } from "./check-dependencies.mjs";

const dirs = [];
function tree(files) {
  const root = mkdtempSync(join(tmpdir(), "deps-"));
  dirs.push(root);
  for (const [path, body] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), body);
  }
  return root;
}
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

test("the daemon's real source keeps every rule", () => {
  const src = join(dirname(fileURLToPath(import.meta.url)), "..", "packages", "daemon", "src");
  expect(checkDependencies(src)).toEqual([]);
});

test("an inward-pointing tree passes", () => {
  const root = tree({
    "domain/a.ts": `import type { X } from "@coffer/protocol";`,
    "application/b.ts": `import { a } from "../domain/a.js";\nimport type { P } from "./ports.js";`,
    "application/ports.ts": `export interface P {}`,
    "application/vault/vault-ports.ts": `export interface Q {}`,
    "infrastructure/sqlite/c.ts": `import Database from "better-sqlite3";\nimport type { P } from "../../application/ports.js";\nimport type { Q } from "../../application/vault/vault-ports.js";`,
    "http/d.ts": `import { Hono } from "hono";\nimport { b } from "../application/b.js";`,
    "main.ts": `import { c } from "./infrastructure/sqlite/c.js";`,
  });
  expect(checkDependencies(root)).toEqual([]);
});

test("each forbidden import is reported", () => {
  const root = tree({
    "domain/a.ts": `import { b } from "../application/b.js";`,
    "application/b.ts": `import Database from "better-sqlite3";\nimport { s } from "../infrastructure/sqlite/s.js";`,
    "http/c.ts": `import { s } from "../infrastructure/sqlite/s.js";`,
    "infrastructure/agents/d.ts": `import { s } from "../sqlite/s.js";`,
    "infrastructure/sqlite/s.ts": `import { spawn } from "node:child_process";`,
  });
  const v = checkDependencies(root);
  expect(v).toHaveLength(6);
  expect(v.join("\n")).toMatch(/domain must not import application/);
  expect(v.join("\n")).toMatch(/better-sqlite3 may only be used in infrastructure\/sqlite/);
  expect(v.join("\n")).toMatch(/http must not import infrastructure/);
  expect(v.join("\n")).toMatch(/infrastructure\/agents must not reach into infrastructure\/sqlite/);
  expect(v.join("\n")).toMatch(/node:child_process may only be used in infrastructure\/agents/);
});

test("the real src of every workspace package has no import cycle", () => {
  const packages = join(dirname(fileURLToPath(import.meta.url)), "..", "packages");
  for (const name of ["protocol", "daemon", "cli", "web"]) expect(findImportCycles(join(packages, name, "src"))).toEqual([]);
});

test("infrastructure reaching past application's ports files is reported", () => {
  const root = tree({
    "application/vault/gateway.ts": `export class ToolGateway {}`,
    "application/vault/gateway-ports.ts": `export interface GatewayService {}`,
    "infrastructure/mcp/endpoint.ts": `import type { ToolGateway } from "../../application/gateway/gateway.js";\nimport type { GatewayService } from "../../application/gateway/gateway-ports.js";`,
  });
  expect(checkDependencies(root)).toEqual([
    "infrastructure/mcp/endpoint.ts: infrastructure may see application only through ports files, not ../../application/gateway/gateway.js",
  ]);
});

test("import cycles are reported, type-only and through folders included; a tree without one passes", () => {
  const root = tree({
    "routes.ts": `import type { RouteSpec } from "./route-spec.js";\nimport { VAULT } from "./routes-vault.js";`,
    "routes-vault.ts": `import type {\n  Spec,\n} from "./routes.js";`,
    "route-spec.ts": `export interface RouteSpec {}`,
    "ui/layout.tsx": `import { Page } from "./page.js";`,
    "ui/page.tsx": `import type { Props } from "./index.js";`,
    "ui/index.ts": `export * from "./layout.js";`,
    "self.ts": `import { x } from "./self.js";`,
    "clean/a.ts": `import { b } from "./b.js";`,
    "clean/b.ts": `export const b = 1;`,
    "x.test.ts": `import { y } from "./y.js";`,
    "y.ts": `import { x } from "./x.test.js";`,
  });
  const cycles = findImportCycles(root);
  expect(cycles).toHaveLength(3);
  expect(cycles).toContain("import cycle: routes-vault.ts → routes.ts → routes-vault.ts");
  expect(cycles).toContain(`import cycle: ${join("ui", "index.ts")} → ${join("ui", "layout.tsx")} → ${join("ui", "page.tsx")} → ${join("ui", "index.ts")}`);
  expect(cycles).toContain("import cycle: self.ts → self.ts");
  expect(checkDependencies(root).filter((v) => v.startsWith("import cycle"))).toEqual(cycles);
});

test("a two-way tie between two application folders is reported, type-only imports included", () => {
  // No file cycle here (engine → alerts → runner): only the folders point at each other.
  const root = tree({
    "application/turns/engine.ts": `import type { OwnerAlerts } from "../alerts/owner-alerts.js";`,
    "application/turns/runner.ts": `export type StopReason = "interrupt";`,
    "application/alerts/owner-alerts.ts": `import type { StopReason } from "../turns/runner.js";\nexport class OwnerAlerts {}`,
    "application/audit-log.ts": `import type { GatewayPrincipal } from "./gateway/principal.js";\nexport type AuditSink = () => void;`,
    "application/gateway/principal.ts": `export interface GatewayPrincipal {}`,
    "application/gateway/servers.ts": `import type { AuditSink } from "../audit-log.js";`,
  });
  expect(findImportCycles(root)).toEqual([]);
  expect(checkDependencies(root)).toEqual([
    `two-way tie: application/alerts ↔ application/turns (${join("alerts", "owner-alerts.ts")} imports ${join("turns", "runner.ts")}; ${join("turns", "engine.ts")} imports ${join("alerts", "owner-alerts.ts")})`,
    `two-way tie: application/audit-log.ts ↔ application/gateway (audit-log.ts imports ${join("gateway", "principal.ts")}; ${join("gateway", "servers.ts")} imports audit-log.ts)`,
  ]);
});

test("a longer circle between application folders is reported; one-way ties pass", () => {
  const ring = tree({
    "application/a/a.ts": `import type { B } from "../b/b.js";`,
    "application/b/b.ts": `import type { C } from "../c/c.js";\nexport interface B {}`,
    "application/c/c.ts": `import type { A } from "../a/a-ports.js";\nexport interface C {}`,
    "application/a/a-ports.ts": `export interface A {}`,
  });
  expect(findImportCycles(ring)).toEqual([]);
  expect(checkDependencies(ring)).toEqual([
    `folder cycle: application/a → application/b → application/c → application/a (${join("a", "a.ts")} imports ${join("b", "b.ts")}; ${join("b", "b.ts")} imports ${join("c", "c.ts")}; ${join("c", "c.ts")} imports ${join("a", "a-ports.ts")})`,
  ]);
  const oneWay = tree({
    "application/alerts/owner-alerts.ts": `import type { TurnAlerts } from "../turns/turn-alert-ports.js";\nimport type { X } from "../ports.js";`,
    "application/turns/turn-alert-ports.ts": `export interface TurnAlerts {}`,
    "application/turns/engine.ts": `import type { TurnAlerts } from "./turn-alert-ports.js";\nimport type { X } from "../ports.js";`,
    "application/ports.ts": `export interface X {}`,
  });
  expect(checkDependencies(oneWay)).toEqual([]);
});
