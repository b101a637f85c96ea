import { describe, expect, it } from "vitest";
import { insertTranscript } from "./insert-transcript.js";
import { clock, micErrorText, recordingType } from "./voice-text.js";

describe("the microphone's transcript in the composer", () => {
  it("fills an empty box as it is", () => {
    expect(insertTranscript("", 0, 0, "fix the login page")).toEqual({ value: "fix the login page", caret: 18 });
  });

  it("continues typed text at the caret with a space between words, the caret after it", () => {
    const typed = "Look at this:";
    expect(insertTranscript(typed, typed.length, typed.length, "the login fails")).toEqual({ value: "Look at this: the login fails", caret: 29 });
    expect(insertTranscript("Look at this: ", 14, 14, "it")).toEqual({ value: "Look at this: it", caret: 16 });
  });

  it("goes between words in the middle, and replaces a selection", () => {
    expect(insertTranscript("before after", 6, 6, "middle")).toEqual({ value: "before middle after", caret: 13 });
    expect(insertTranscript("keep DROP keep", 5, 9, "new")).toEqual({ value: "keep new keep", caret: 8 });
  });
});

describe("the microphone's words", () => {
  it("says a blocked, missing or busy microphone in the owner's words", () => {
    expect(micErrorText(new DOMException("Permission denied", "NotAllowedError"))).toMatch(/^Microphone blocked: allow it/);
    expect(micErrorText(new DOMException("Requested device not found", "NotFoundError"))).toBe("No microphone found on this device.");
    expect(micErrorText(new DOMException("Could not start audio source", "NotReadableError"))).toMatch(/busy or unavailable/);
    expect(micErrorText(new Error("odd"))).toBe("The microphone could not start (odd).");
  });

  it("shows the recording's length as m:ss", () => {
    expect([clock(0), clock(999), clock(61_000), clock(600_000)]).toEqual(["0:00", "0:00", "1:01", "10:00"]);
  });

  it("records Opus in WebM where the browser can, MP4 on Safari, else the browser's default", () => {
    expect(recordingType(() => true)).toBe("audio/webm;codecs=opus");
    expect(recordingType((t) => t === "audio/mp4")).toBe("audio/mp4");
    expect(recordingType(() => false)).toBeUndefined();
  });
});
