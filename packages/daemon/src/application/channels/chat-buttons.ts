import type { MessageButton } from "./ports.js";

// The buttons the bot puts under its messages, and what a tap on one means. Platform-neutral:
// Telegram shows them as an inline keyboard, Discord as components; both hand the data back
// with the tap (InboundUpdate.callback). The data is small and self-describing, so a tap needs
// no lookup table to be understood — only to be checked against what is still open.

/** Telegram allows 64 bytes of callback data (Discord's custom_id: 100). */
const MAX_DATA_BYTES = 64;
/** Discord shows at most 5 rows of 5; Telegram more. The smaller of the two, so one layout fits both. */
export const MAX_ROWS = 5;
export const MAX_PER_ROW = 5;

/**
 * Which option of which question a toggle carries, as one number: question × 100 + option, so a
 * message of one question uses the option's own index (the data of buttons already shown keeps
 * its meaning). `SKIP_OPTION` is an optional question's "Skip".
 */
const PER_QUESTION = 100;
export const SKIP_OPTION = PER_QUESTION - 1;

export function pickCode(question: number, option: number): number {
  return question * PER_QUESTION + option;
}

export function pickOf(code: number): { readonly question: number; readonly option: number } {
  return { question: Math.floor(code / PER_QUESTION), option: code % PER_QUESTION };
}

export type ButtonAction =
  /** A single choice: one tap answers with option `option` (`SKIP_OPTION`: leaves an optional question unanswered). */
  | { readonly kind: "answer"; readonly questionId: string; readonly option: number }
  /** A multi-select, or one question of several: the tap adds or removes `option` (a `pickCode`) from the picks. */
  | { readonly kind: "toggle"; readonly questionId: string; readonly option: number }
  /** A multi-select, or several questions: the picks so far are the answer. */
  | { readonly kind: "send"; readonly questionId: string }
  /** The progress message's Stop: stops turn `turnId` (a stale button never stops a later turn). */
  | { readonly kind: "stop"; readonly turnId: string };

const PREFIX = { answer: "qa", toggle: "qt", send: "qs", stop: "st" } as const;
const PARSE = /^(qa|qt):(.+):(\d+)$|^(qs|st):(.+)$/;

/** The data a button carries for this action. */
export function buttonData(action: ButtonAction): string {
  switch (action.kind) {
    case "answer":
    case "toggle":
      return `${PREFIX[action.kind]}:${action.questionId}:${action.option}`;
    case "send":
      return `${PREFIX.send}:${action.questionId}`;
    case "stop":
      return `${PREFIX.stop}:${action.turnId}`;
  }
}

/** A tapped button's action, or null for data this bot did not make. */
export function parseButton(data: string): ButtonAction | null {
  const m = PARSE.exec(data);
  if (!m) return null;
  if (m[1] === "qa") return { kind: "answer", questionId: m[2]!, option: Number(m[3]) };
  if (m[1] === "qt") return { kind: "toggle", questionId: m[2]!, option: Number(m[3]) };
  if (m[4] === "qs") return { kind: "send", questionId: m[5]! };
  return { kind: "stop", turnId: m[5]! };
}

/** Whether every button's data fits the platform's limit (else the message goes without buttons). */
export function dataFits(rows: readonly (readonly MessageButton[])[]): boolean {
  return rows.every((row) => row.every((b) => Buffer.byteLength(b.data) <= MAX_DATA_BYTES));
}

/**
 * Buttons as rows: one per row while they fit in `rows` (long labels stay readable), else
 * packed evenly; null when more than `rows` × MAX_PER_ROW.
 */
export function layout(buttons: readonly MessageButton[], rows: number): MessageButton[][] | null {
  if (buttons.length <= rows) return buttons.map((b) => [b]);
  const perRow = Math.ceil(buttons.length / rows);
  if (perRow > MAX_PER_ROW) return null;
  const out: MessageButton[][] = [];
  for (let i = 0; i < buttons.length; i += perRow) out.push(buttons.slice(i, i + perRow));
  return out;
}

/** The Stop button under a running turn's progress message. */
export function stopButtons(turnId: string): MessageButton[][] | undefined {
  const rows = [[{ text: "⏹ Stop", data: buttonData({ kind: "stop", turnId }) }]];
  return dataFits(rows) ? rows : undefined;
}
