import { stat } from "node:fs/promises";
import { homedir } from "node:os";
import { isAbsolute, resolve } from "node:path";
import { normalizeModel, type AgentConfig } from "../../domain/agent-config.js";
import { AgentConfigRejected } from "../../domain/errors.js";
import { ensureWorkspaceDir } from "./workspace-dir.js";

/**
 * Validates a managed agent's config (Claude Code, Codex): `cwd` absent → the Coffer
 * workspace, created on first use; an explicit `cwd` must be an existing directory;
 * `model` is free text the agent's CLI judges on the next turn.
 */
export async function initManagedConfig(config: unknown, workspaceDir: string): Promise<AgentConfig> {
  if (config === null || config === undefined) config = {};
  if (typeof config !== "object" || Array.isArray(config)) {
    throw new AgentConfigRejected("agent_config must be an object like {\"cwd\": \"...\", \"model\": \"...\"}", "invalid_config");
  }
  const { cwd, model } = config as Record<string, unknown>;
  if (model !== undefined && model !== null && typeof model !== "string") {
    throw new AgentConfigRejected("agent_config.model must be a string", "invalid_model");
  }
  if (cwd !== undefined && cwd !== null && typeof cwd !== "string") {
    throw new AgentConfigRejected("agent_config.cwd must be a string path", "invalid_cwd");
  }
  const resolvedCwd = cwd?.trim() ? await existingDirectory(cwd.trim()) : await ensureWorkspaceDir(workspaceDir);
  const chosenModel = normalizeModel(model);
  return chosenModel ? { cwd: resolvedCwd, model: chosenModel } : { cwd: resolvedCwd };
}

async function existingDirectory(path: string): Promise<string> {
  const expanded = path === "~" || path.startsWith("~/") ? homedir() + path.slice(1) : path;
  if (!isAbsolute(expanded)) {
    throw new AgentConfigRejected(`agent_config.cwd must be an absolute path, got "${path}"`, "invalid_cwd", { cwd: path });
  }
  const full = resolve(expanded);
  const info = await stat(full).catch(() => null);
  if (!info?.isDirectory()) {
    throw new AgentConfigRejected(`working directory does not exist or is not a directory: ${full}`, "cwd_not_a_directory", {
      cwd: full,
    });
  }
  return full;
}
