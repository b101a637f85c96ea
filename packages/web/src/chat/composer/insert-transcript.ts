/** Kept apart from voice-text.ts: the composer (first load) needs only this; the rest loads with the microphone. */

/**
 * Put the transcript where the caret is (replacing a selection), with a space on either side
 * when it would otherwise touch a word, so dictation continues what was typed.
 */
export function insertTranscript(value: string, start: number, end: number, transcript: string): { value: string; caret: number } {
  const before = value.slice(0, start);
  const after = value.slice(end);
  const lead = before && !/\s$/.test(before) ? " " : "";
  const tail = after && !/^\s/.test(after) ? " " : "";
  const inserted = `${lead}${transcript}${tail}`;
  return { value: before + inserted + after, caret: before.length + lead.length + transcript.length };
}
