/**
 * The one question the question suites ask: what the owner sees (protocol shape), and how each
 * real agent's fake model is told to ask it through the agent's own question tool.
 */
import type { Question } from "@coffer/protocol";
import type { AgentKey } from "../fakes/agent-rig.js";

export const COLOUR_QUESTION: Question = {
  header: "Colour",
  text: "Which colour should the button be?",
  options: [
    { label: "Red", description: "warm and loud" },
    { label: "Blue", description: "calm" },
  ],
  multi_select: false,
  allow_free_text: true,
};

/**
 * The message that makes the agent's fake model ask `questions`: Claude Code's fake calls
 * AskUserQuestion on `ASK: [...]` (the tool's own field names), Codex's calls
 * request_user_input on `ASK [...]` (each question needs an id).
 */
export function askPrompt(agent: AgentKey, questions: readonly Question[] = [COLOUR_QUESTION]): string {
  if (agent === "claude_code") {
    return `ASK: ${JSON.stringify(questions.map((q) => ({ question: q.text, header: q.header, options: q.options, multiSelect: q.multi_select })))}`;
  }
  return `ASK ${JSON.stringify(questions.map((q) => ({ id: q.header.toLowerCase(), header: q.header, question: q.text, options: q.options })))}`;
}
