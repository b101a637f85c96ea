import { ROUTES, type AgentOut, type ChannelKindOut, type ChannelCreate, type ChannelOut, type ChannelPatch, type CredentialOut } from "@coffer/protocol";
import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState } from "react";
import { describe, expect, it, vi } from "vitest";
import { ApiError } from "../../api/client.js";
import { ChannelForm } from "./channel-form.js";
import { renderWithApi } from "../../../test/render-with-api.js";

const agents: AgentOut[] = [
  { agent_key: "codex", display_name: "Codex", available: false, setup: { install: { command: "install codex" }, sign_in: [] }, glyph: "hexagon" },
  { agent_key: "claude_code", display_name: "Claude Code", available: true, setup: { install: { command: "install claude" }, sign_in: [] }, glyph: "asterisk" },
];
const stamp = "2026-12-02T12:00:00.000Z";
const kinds: ChannelKindOut[] = [{ kind: "telegram", display_name: "Telegram", credentials: [{ name: "bot_token", label: "Bot token", secret: true, hint: null }] }];

/**
 * The daemon is stood in for by a recorder of typed calls: these pin what the form sends and
 * how it shows a refusal (the real flow runs end to end in e2e/channels-settings.e2e.ts).
 */
function setup(answer: (body: ChannelCreate) => unknown) {
  const call = vi.fn(async (route: unknown, args: { body: ChannelCreate }) => {
    expect(route).toBe(ROUTES.createChannel);
    return answer(args.body);
  });
  const onDone = vi.fn();
  const onStore = vi.fn(async (_ref: string, _secret: string) => undefined);
  function Harness() {
    const [credentials, setCredentials] = useState<CredentialOut[]>([{ ref: "old-bot", created_at: stamp, updated_at: stamp }]);
    return (
      <ChannelForm
        kinds={kinds}
        agents={agents}
        credentials={credentials}
        onDone={onDone}
        onStoreToken={async (ref, secret) => {
          await onStore(ref, secret);
          setCredentials((c) => [...c, { ref, created_at: stamp, updated_at: stamp }]);
        }}
      />
    );
  }
  renderWithApi(<Harness />, call);
  return { call, onDone, onStore };
}

const name = () => screen.getByRole("textbox", { name: "Name" });
const token = () => screen.getByRole("combobox", { name: "Bot token" });

describe("ChannelForm", () => {
  it("stores a new bot token in place, picks it, and sends only its ref", async () => {
    const { call, onDone, onStore } = setup((body) => ({ id: "ch1", ...body }));
    expect(screen.getByRole("combobox", { name: "Default agent" })).toHaveValue("claude_code");
    await userEvent.type(name(), "Phone");
    await userEvent.click(screen.getByRole("button", { name: "Store a new token" }));
    const secret = screen.getByLabelText("New bot token") as HTMLInputElement;
    expect(secret).toHaveAttribute("type", "password");
    await userEvent.clear(screen.getByRole("textbox", { name: "Credential name" }));
    await userEvent.type(screen.getByRole("textbox", { name: "Credential name" }), "tg-phone");
    await userEvent.type(secret, "123456:SECRET");
    await userEvent.click(screen.getByRole("button", { name: "Save token" }));
    expect(onStore).toHaveBeenCalledWith("tg-phone", "123456:SECRET");
    expect(token()).toHaveValue("tg-phone");
    expect(screen.queryByLabelText("New bot token")).toBeNull();
    await userEvent.click(screen.getByRole("button", { name: "Add channel" }));
    expect(call).toHaveBeenCalledTimes(1);
    const body = call.mock.calls[0]![1].body;
    expect(body).toEqual({ kind: "telegram", name: "Phone", credentials: { bot_token: "tg-phone" }, default_agent: "claude_code", default_cwd: null, default_model: null });
    expect(JSON.stringify(body)).not.toContain("SECRET");
    expect(onDone).toHaveBeenCalledWith(expect.objectContaining({ id: "ch1" }));
    expect(document.body.innerHTML).not.toContain("123456:SECRET");
  });

  it("shows the daemon's refusal inline, marks the token, and keeps everything typed", async () => {
    const { onDone } = setup(() => {
      throw new ApiError(422, "CHANNEL_TOKEN_REJECTED", "Telegram refused the bot token (401 Unauthorized).");
    });
    await userEvent.type(name(), "Phone");
    await userEvent.selectOptions(token(), "old-bot");
    await userEvent.type(screen.getByRole("textbox", { name: "Working directory" }), "/home/me/src");
    await userEvent.type(screen.getByRole("textbox", { name: "Model" }), "opus");
    await userEvent.click(screen.getByRole("button", { name: "Add channel" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("Telegram refused the bot token (401 Unauthorized).");
    expect(token()).toHaveAttribute("aria-invalid", "true");
    expect(name()).toHaveValue("Phone");
    expect(token()).toHaveValue("old-bot");
    expect(screen.getByRole("textbox", { name: "Working directory" })).toHaveValue("/home/me/src");
    expect(screen.getByRole("textbox", { name: "Model" })).toHaveValue("opus");
    expect(onDone).not.toHaveBeenCalled();
  });

  it("refuses a relative working directory before asking the daemon", async () => {
    const { call } = setup(() => ({}));
    await userEvent.type(name(), "Phone");
    await userEvent.selectOptions(token(), "old-bot");
    await userEvent.type(screen.getByRole("textbox", { name: "Working directory" }), "src");
    expect(screen.getByText(/An absolute path/)).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Add channel" })).toBeDisabled();
    expect(call).not.toHaveBeenCalled();
  });

  it("editing sends only what changed, so an untouched token is not re-checked", async () => {
    const existing = {
      id: "ch1", kind: "telegram", name: "Phone", credentials: { bot_token: "old-bot" }, bot_token_ref: "old-bot", default_agent: "claude_code", default_cwd: null, default_model: null,
    } as unknown as ChannelOut;
    const call = vi.fn(async (_route: unknown, args: { body: ChannelPatch }) => ({ ...existing, ...args.body }));
    renderWithApi(
      <ChannelForm channel={existing} kinds={kinds} agents={agents} credentials={[{ ref: "old-bot", created_at: stamp, updated_at: stamp }]} onStoreToken={vi.fn()} onDone={vi.fn()} />,
      call,
    );
    await userEvent.type(screen.getByRole("textbox", { name: "Model" }), "opus");
    await userEvent.click(screen.getByRole("button", { name: "Save channel" }));
    expect(call).toHaveBeenCalledWith(ROUTES.updateChannel, { params: { id: "ch1" }, body: { default_model: "opus" } });
  });

  it("is built from what the platform declares: one credential field per declared name, sent as the channel's credential map", async () => {
    const twoKinds: ChannelKindOut[] = [
      ...kinds,
      { kind: "chatland", display_name: "Chatland", credentials: [{ name: "app_token", label: "App token", secret: true, hint: "From the app page." }, { name: "bot_token", label: "Bot token", secret: true, hint: null }] },
    ];
    const call = vi.fn(async (_route: unknown, args: { body: ChannelCreate }) => ({ id: "ch2", ...args.body }));
    const creds = [{ ref: "a", created_at: stamp, updated_at: stamp }, { ref: "b", created_at: stamp, updated_at: stamp }];
    renderWithApi(<ChannelForm kinds={twoKinds} agents={agents} credentials={creds} onStoreToken={vi.fn()} onDone={vi.fn()} />, call);
    // Telegram first: its one declared field.
    expect(screen.getAllByRole("combobox").map((e) => e.getAttribute("aria-label") ?? (e as HTMLSelectElement).labels?.[0]?.textContent)).toEqual(["Platform", "Default agent", "Bot token"]);
    await userEvent.selectOptions(screen.getByRole("combobox", { name: "Platform" }), "chatland");
    await userEvent.type(screen.getByRole("textbox", { name: "Name" }), "Desk");
    await userEvent.selectOptions(screen.getByRole("combobox", { name: "App token" }), "a");
    expect(screen.getByRole("button", { name: "Add channel" })).toBeDisabled();
    await userEvent.selectOptions(screen.getByRole("combobox", { name: "Bot token" }), "b");
    await userEvent.click(screen.getByRole("button", { name: "Add channel" }));
    expect(call.mock.calls[0]![1].body).toMatchObject({ kind: "chatland", name: "Desk", credentials: { app_token: "a", bot_token: "b" } });
  });
});
