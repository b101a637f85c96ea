import { ROUTES, type TranscriptionSettingsOut, type TranscriptionSettingsPut, type TranscriptionTestOut } from "@coffer/protocol";
import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { renderWithApi } from "../../../test/render-with-api.js";
import { ApiError } from "../../api/client.js";
import { VoiceSection } from "./voice-section.js";

const stamp = "2026-12-05T07:00:00.000Z";
const saved = (over: Partial<TranscriptionSettingsOut> = {}): TranscriptionSettingsOut => ({
  base_url: "http://127.0.0.1:8080",
  model: "whisper-1",
  language: null,
  has_key: true,
  updated_at: stamp,
  ...over,
});

/**
 * The daemon is stood in for by a recorder of typed calls: these pin what the form sends (the
 * key only when typed, null to remove it) and what it shows; the real flow — the page against a
 * real daemon and the fake transcription server — is e2e/voice.e2e.ts.
 */
function setup(connection: TranscriptionSettingsOut | null, answers: { put?: (body: TranscriptionSettingsPut) => unknown; test?: () => TranscriptionTestOut } = {}) {
  const puts: TranscriptionSettingsPut[] = [];
  const call = vi.fn(async (route: unknown, args?: { body: TranscriptionSettingsPut }) => {
    if (route === ROUTES.getTranscriptionSettings) return { connection };
    if (route === ROUTES.putTranscriptionSettings) {
      puts.push(args!.body);
      return answers.put ? answers.put(args!.body) : { connection: saved({ has_key: args!.body.api_key !== null, updated_at: `2026-12-05T07:0${puts.length}:00.000Z` }) };
    }
    if (route === ROUTES.testTranscriptionSettings) return answers.test!();
    throw new Error("unexpected route");
  });
  renderWithApi(<VoiceSection />, call);
  return { call, puts };
}

const form = () => screen.findByRole("form", { name: "Voice transcription connection" });

describe("Settings → Voice transcription", () => {
  it("off: says where the audio goes, and saving sends the URL, the default model and the typed key", async () => {
    const { puts } = setup(null);
    const f = await form();
    expect(screen.getByText("Off")).toBeInTheDocument();
    expect(screen.getByText(/local\s+whisper\.cpp or faster-whisper server keeps it on this machine/)).toBeInTheDocument();
    expect(within(f).getByRole("button", { name: /Test/ })).toBeDisabled();
    await userEvent.type(within(f).getByLabelText("Base URL"), "http://127.0.0.1:8080");
    await userEvent.type(within(f).getByLabelText("API key"), "sk-secret");
    await userEvent.click(within(f).getByRole("button", { name: "Save and turn on" }));
    await within(await form()).findByText("Saved");
    expect(puts).toEqual([{ base_url: "http://127.0.0.1:8080", model: "whisper-1", language: null, api_key: "sk-secret" }]);
    // Write-only: once saved, the key is nowhere on the page, not even masked in a field.
    expect(screen.queryByLabelText("API key", { selector: "input" })).toBeNull();
    expect(screen.getByText("On")).toBeInTheDocument();
  });

  it("a saved key is not sent again unless replaced; Remove key sends null", async () => {
    const { puts } = setup(saved());
    const f = await form();
    await userEvent.type(within(f).getByLabelText("Language"), "fr");
    await userEvent.click(within(f).getByRole("button", { name: "Save" }));
    await within(await form()).findByText("Saved");
    expect(puts[0]).toEqual({ base_url: "http://127.0.0.1:8080", model: "whisper-1", language: "fr" });
    await userEvent.click(within(await form()).getByRole("button", { name: "Remove key" }));
    expect(screen.getByText("Will be removed")).toBeInTheDocument();
    await userEvent.click(within(await form()).getByRole("button", { name: "Save" }));
    await vi.waitFor(() => expect(puts).toHaveLength(2));
    expect(puts[1]).toMatchObject({ api_key: null });
  });

  it("Test checks the saved connection only, and shows what was heard or the daemon's reason", async () => {
    let outcome: TranscriptionTestOut = { ok: true, error: null, transcript: "hello" };
    setup(saved(), { test: () => outcome });
    const f = await form();
    const test = within(f).getByRole("button", { name: /Test/ });
    await userEvent.type(within(f).getByLabelText("Model"), "-large");
    expect(test).toBeDisabled(); // unsaved edits: Test would not be testing them
    await userEvent.clear(within(f).getByLabelText("Model"));
    await userEvent.type(within(f).getByLabelText("Model"), "whisper-1");
    await userEvent.click(test);
    expect(await within(f).findByRole("status", { name: "Test result" })).toHaveTextContent("Transcription works — heard “hello”");
    outcome = { ok: false, error: "the endpoint answered 401: Incorrect API key provided", transcript: null };
    await userEvent.click(test);
    await vi.waitFor(() => expect(within(f).getByRole("status", { name: "Test result" })).toHaveTextContent("Test failed — the endpoint answered 401: Incorrect API key provided"));
  });

  it("shows the daemon's refusal inline and keeps what was typed", async () => {
    setup(null, {
      put: () => {
        throw new ApiError(400, "VALIDATION_FAILED", "base_url: an http:// or https:// URL");
      },
    });
    const f = await form();
    await userEvent.type(within(f).getByLabelText("Base URL"), "ftp://example");
    await userEvent.click(within(f).getByRole("button", { name: "Save and turn on" }));
    expect(await within(f).findByRole("alert")).toHaveTextContent("base_url: an http:// or https:// URL");
    expect(within(f).getByLabelText("Base URL")).toHaveValue("ftp://example");
  });
});
