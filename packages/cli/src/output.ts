import type { ConversationOut, MessageOut } from "@coffer/protocol";

export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

function pad(s: string, n: number): string {
  return s.length >= n ? `${s.slice(0, n - 1)}…` : s.padEnd(n);
}

export function conversationLine(c: ConversationOut): string {
  const flags = [c.running ? "running" : "", c.archived_at ? "archived" : "", c.channel_binding ? `via ${c.channel_binding.channel}` : ""]
    .filter(Boolean)
    .join(", ");
  return `${c.id}  ${pad(c.agent_key, 12)} ${pad(c.title, 48)} ${c.updated_at.slice(0, 16).replace("T", " ")}${flags ? `  [${flags}]` : ""}`;
}

export function messageBlock(m: MessageOut): string {
  const head = m.role === "user" ? "you" : `assistant${m.model_id ? ` (${m.model_id})` : ""}`;
  const lines = [`── ${head} · #${m.seq}${m.status !== "complete" ? ` · ${m.status}` : ""}`];
  for (const b of m.content) {
    if (b.type === "text") lines.push(b.text);
    else if (b.type === "tool_use") lines.push(`  ⚙ ${b.tool_name} ${summarise(b.tool_input)}`);
    else lines.push(`  ${b.error ? "✗" : "✓"} ${b.tool_name}${b.error ? `: ${b.error}` : ""}`);
  }
  if (m.role === "assistant" && (m.prompt_tokens !== null || m.completion_tokens !== null)) {
    lines.push(`  tokens: ${m.prompt_tokens ?? "?"} in / ${m.completion_tokens ?? "?"} out`);
  }
  return lines.join("\n");
}

export function summarise(value: unknown, max = 80): string {
  const text = typeof value === "string" ? value : JSON.stringify(value ?? {});
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
