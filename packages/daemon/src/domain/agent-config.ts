/**
 * What a managed agent keeps per conversation. The provider owns it; the engine
 * only ever reads `model` for display and never touches the rest.
 */
export interface AgentConfig {
  readonly cwd?: string;
  readonly model?: string;
  readonly session_id?: string;
  readonly [key: string]: unknown;
}

/** Blank means "inherit the agent's default". */
export function normalizeModel(model: string | null | undefined): string | undefined {
  const trimmed = model?.trim();
  return trimmed ? trimmed : undefined;
}

export function withModel(config: AgentConfig, model: string | null | undefined): AgentConfig {
  const { model: _previous, ...rest } = config;
  const next = normalizeModel(model);
  return next === undefined ? rest : { ...rest, model: next };
}

export function withSessionId(config: AgentConfig, sessionId: string | undefined): AgentConfig {
  const { session_id: _previous, ...rest } = config;
  return sessionId ? { ...rest, session_id: sessionId } : rest;
}

/** Stored JSON that is not an object (or not JSON) is treated as no config at all. */
export function parseStoredAgentConfig(raw: string | null): AgentConfig {
  if (!raw) return {};
  try {
    const value: unknown = JSON.parse(raw);
    return value && typeof value === "object" && !Array.isArray(value) ? (value as AgentConfig) : {};
  } catch {
    return {};
  }
}

export function stringField(config: AgentConfig, key: string): string | undefined {
  const value = config[key];
  return typeof value === "string" && value.length > 0 ? value : undefined;
}
