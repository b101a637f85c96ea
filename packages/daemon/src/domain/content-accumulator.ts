import type { AgentEvent, ContentBlock } from "@coffer/protocol";

/**
 * Folds a turn's events into content blocks in emission order: consecutive text
 * deltas grow one text block; each tool call and result becomes its own block.
 */
export class ContentAccumulator {
  private readonly blocks: ContentBlock[] = [];
  private openText: { type: "text"; text: string } | null = null;
  private textParts: string[] = [];

  add(event: AgentEvent): void {
    switch (event.type) {
      case "text_delta":
        if (!event.text) return;
        if (!this.openText) {
          this.openText = { type: "text", text: "" };
          this.blocks.push(this.openText);
          this.textParts = [];
        }
        this.textParts.push(event.text);
        return;
      case "tool_call":
        this.closeText();
        this.blocks.push({
          type: "tool_use",
          tool_use_id: event.tool_use_id,
          tool_name: event.tool_name,
          tool_input: event.tool_input ?? {},
        });
        return;
      case "tool_result":
        this.closeText();
        this.blocks.push({
          type: "tool_result",
          tool_use_id: event.tool_use_id,
          tool_name: event.tool_name,
          output: event.output ?? null,
          error: event.error,
        });
        return;
      case "turn_done":
      case "turn_error":
        return;
    }
  }

  /** A snapshot safe to persist; joins pending text parts without closing the block. */
  snapshot(): ContentBlock[] {
    if (this.openText) {
      this.openText.text = this.textParts.join("");
      this.textParts = [this.openText.text];
    }
    return this.blocks.map((b) => ({ ...b }));
  }

  get isEmpty(): boolean {
    return this.blocks.length === 0;
  }

  private closeText(): void {
    if (this.openText) this.openText.text = this.textParts.join("");
    this.openText = null;
    this.textParts = [];
  }
}

/** Plain text of a message's text blocks, for titles, search and CLI output. */
export function plainText(blocks: readonly ContentBlock[]): string {
  return blocks
    .filter((b): b is Extract<ContentBlock, { type: "text" }> => b.type === "text")
    .map((b) => b.text)
    .join("\n");
}
