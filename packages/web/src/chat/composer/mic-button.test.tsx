import { TRANSCRIPTION_ROUTES } from "@coffer/protocol";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { MemoryRouter } from "react-router";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ApiProvider } from "../../api/api-context.js";
import { ApiError, type CofferApi } from "../../api/client.js";
import { MicButton } from "./mic-button.js";

// jsdom has no microphone: getUserMedia and MediaRecorder are stood in for here (a stream whose
// tracks record being stopped, a recorder that hands over one chunk on stop). The real browser
// path — Chromium's fake microphone, the daemon, the fake transcription server — is e2e/voice.e2e.ts.
const tracks: { stop: ReturnType<typeof vi.fn> }[] = [];
class FakeRecorder {
  static isTypeSupported = (type: string) => type === "audio/webm;codecs=opus";
  state: "inactive" | "recording" = "inactive";
  ondataavailable: ((e: { data: Blob }) => void) | null = null;
  onstop: (() => void) | null = null;
  constructor(
    readonly stream: unknown,
    readonly options?: { mimeType?: string },
  ) {}
  get mimeType() {
    return this.options?.mimeType ?? "";
  }
  start() {
    this.state = "recording";
  }
  stop() {
    this.state = "inactive";
    this.ondataavailable?.({ data: new Blob([new Uint8Array(2048)], { type: this.mimeType }) });
    this.onstop?.();
  }
}
const getUserMedia = vi.fn(async () => {
  const track = { stop: vi.fn() };
  tracks.push(track);
  return { getTracks: () => [track] };
});

beforeEach(() => {
  tracks.length = 0;
  getUserMedia.mockClear();
  vi.stubGlobal("MediaRecorder", FakeRecorder);
  Object.defineProperty(navigator, "mediaDevices", { value: { getUserMedia }, configurable: true });
  Object.defineProperty(window, "isSecureContext", { value: true, configurable: true });
});
afterEach(() => vi.unstubAllGlobals());

function setup({ configured = true, transcribe }: { configured?: boolean; transcribe?: () => Promise<unknown> } = {}) {
  const onText = vi.fn();
  const call = vi.fn(async (route: unknown) => {
    if (route === TRANSCRIPTION_ROUTES.transcriptionStatus) return { configured };
    throw new Error("unexpected route");
  });
  const sendBytes = vi.fn(transcribe ?? (async () => ({ text: "fix the login page" })));
  const api = { call, sendBytes } as unknown as CofferApi;
  const utils = render(
    <QueryClientProvider client={new QueryClient()}>
      <ApiProvider api={api}>
        <MemoryRouter>
          <MicButton onText={onText} />
        </MemoryRouter>
      </ApiProvider>
    </QueryClientProvider>,
  );
  return { ...utils, onText, sendBytes };
}

const record = () => screen.findByRole("button", { name: "Record a voice message" });

describe("the composer's microphone", () => {
  it("while voice is off it is marked off, and a tap says where to turn it on without touching the microphone", async () => {
    setup({ configured: false });
    const mic = await screen.findByRole("button", { name: "Voice input (off)" });
    expect(mic).toHaveAttribute("aria-disabled", "true");
    await userEvent.click(mic);
    const note = screen.getByRole("status");
    expect(note).toHaveTextContent("Voice input is off.");
    expect(screen.getByRole("link", { name: "Settings → LLM Connections" })).toHaveAttribute("href", "/settings/connections");
    expect(getUserMedia).not.toHaveBeenCalled();
  });

  it("records, says it is transcribing while the daemon works, hands the text over and lets the microphone go", async () => {
    let answer!: (v: { text: string }) => void;
    const { onText, sendBytes } = setup({ transcribe: () => new Promise((r) => (answer = r)) });
    await userEvent.click(await record());
    expect(await screen.findByRole("timer")).toHaveAccessibleName("Recording, 0:00");
    await userEvent.click(screen.getByRole("button", { name: "Stop recording and transcribe" }));
    expect(tracks[0]!.stop).toHaveBeenCalled();
    const [route, audio] = sendBytes.mock.calls[0]! as unknown as [unknown, Blob];
    expect(route).toBe(TRANSCRIPTION_ROUTES.transcribe);
    expect([audio.type, audio.size]).toEqual(["audio/webm;codecs=opus", 2048]);
    expect(screen.getByRole("status")).toHaveTextContent("Transcribing…");
    expect(screen.getByRole("button", { name: "Transcribing" })).toHaveAttribute("aria-disabled", "true");
    expect(onText).not.toHaveBeenCalled();
    await act(async () => answer({ text: "fix the login page" }));
    expect(onText).toHaveBeenCalledWith("fix the login page");
    expect(await record()).toBeInTheDocument();
  });

  it("Esc cancels a recording: nothing is posted and the microphone is let go", async () => {
    const { sendBytes, onText } = setup();
    await userEvent.click(await record());
    await screen.findByRole("timer");
    await userEvent.keyboard("{Escape}");
    expect(screen.queryByRole("timer")).toBeNull();
    expect(tracks[0]!.stop).toHaveBeenCalled();
    expect(sendBytes).not.toHaveBeenCalled();
    expect(onText).not.toHaveBeenCalled();
  });

  it("a composer that goes away mid-recording lets the microphone go and posts nothing", async () => {
    const { sendBytes, unmount } = setup();
    await userEvent.click(await record());
    await screen.findByRole("timer");
    unmount();
    expect(tracks[0]!.stop).toHaveBeenCalled();
    expect(sendBytes).not.toHaveBeenCalled();
  });

  it("a failed transcription is said inline in the daemon's words, and nothing reaches the box", async () => {
    const { onText } = setup({
      transcribe: async () => {
        throw new ApiError(502, "TRANSCRIPTION_FAILED", "the transcription connection could not turn the audio into text: the endpoint could not be reached");
      },
    });
    await userEvent.click(await record());
    await userEvent.click(await screen.findByRole("button", { name: "Stop recording and transcribe" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("The transcription connection could not turn the audio into text: the endpoint could not be reached");
    expect(onText).not.toHaveBeenCalled();
  });

  it("says nothing was heard instead of inserting an empty transcript", async () => {
    const { onText } = setup({ transcribe: async () => ({ text: "" }) });
    await userEvent.click(await record());
    await userEvent.click(await screen.findByRole("button", { name: "Stop recording and transcribe" }));
    expect(await screen.findByRole("status")).toHaveTextContent("Nothing was heard in the recording.");
    expect(onText).not.toHaveBeenCalled();
  });
});
