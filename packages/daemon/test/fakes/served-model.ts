/**
 * What the real model APIs answer with: the request names an alias ("claude-sonnet-4-5",
 * "gpt-5"), the response names the dated snapshot that served it. The fakes answer the same
 * way so a test sees the id production would record, not an echo of its own request.
 * Known aliases map to their real snapshot; any other undated id gets a fixed date (the
 * fakes serve every model); an id that is already dated is answered as is, as the APIs do.
 */
const ANTHROPIC: Record<string, string> = {
  "claude-sonnet-4-5": "claude-sonnet-4-5-20250929",
  "claude-haiku-4-5": "claude-haiku-4-5-20251001",
  "claude-opus-4-1": "claude-opus-4-1-20250805",
  "claude-opus-4-5": "claude-opus-4-5-20251101",
  "claude-sonnet-4-0": "claude-sonnet-4-20250514",
};

const OPENAI: Record<string, string> = {
  "gpt-5": "gpt-5-2025-08-07",
  "gpt-5-mini": "gpt-5-mini-2025-08-07",
};

export function servedAnthropicModel(requested: string): string {
  if (/-\d{8}$/.test(requested)) return requested;
  return ANTHROPIC[requested] ?? `${requested}-20250929`;
}

export function servedOpenAiModel(requested: string): string {
  if (/-\d{4}-\d{2}-\d{2}$/.test(requested)) return requested;
  return OPENAI[requested] ?? `${requested}-2025-08-07`;
}
