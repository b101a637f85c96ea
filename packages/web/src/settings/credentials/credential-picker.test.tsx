import { ROUTES, type CredentialOut } from "@coffer/protocol";
import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState } from "react";
import { describe, expect, it, vi } from "vitest";
import { CredentialPicker } from "./credential-picker.js";
import { renderWithApi } from "../../../test/render-with-api.js";

const stamp = "2026-12-02T12:00:00.000Z";
const cred = (ref: string): CredentialOut => ({ ref, created_at: stamp, updated_at: stamp });

/** The daemon is a recorder of typed calls; the real flow runs in e2e/vault-upload.e2e.ts. */
function setup(initial = "", optional = false) {
  const call = vi.fn(async (route: unknown, args: { params: { ref: string }; body: { secret: string } }) => {
    expect(route).toBe(ROUTES.setCredential);
    return cred(args.params.ref);
  });
  const onChange = vi.fn();
  function Harness() {
    const [value, setValue] = useState(initial);
    return (
      <CredentialPicker
        label="Credential"
        value={value}
        onChange={(ref) => (onChange(ref), setValue(ref))}
        credentials={[cred("anthropic-key"), cred("openai-key")]}
        optional={optional}
      />
    );
  }
  renderWithApi(<Harness />, call);
  return { call, onChange };
}

const picker = () => screen.getByRole("combobox", { name: "Credential" });
const options = () => Array.from((picker() as HTMLSelectElement).options).map((o) => o.textContent);

describe("CredentialPicker", () => {
  it("lists the stored refs to choose from, instead of typing one", async () => {
    const { onChange } = setup("", true);
    expect(options()).toEqual(["None", "anthropic-key", "openai-key", "New credential…"]);
    await userEvent.selectOptions(picker(), "openai-key");
    expect(onChange).toHaveBeenLastCalledWith("openai-key");
    expect(picker()).toHaveValue("openai-key");
  });

  it("keeps a chosen ref that is no longer stored visible, marked", () => {
    setup("gone-key");
    expect(options()).toContain("gone-key (not stored)");
    expect(picker()).toHaveValue("gone-key");
  });

  it("creates a credential inline, write-only, and chooses it", async () => {
    const { call, onChange } = setup();
    await userEvent.selectOptions(picker(), "New credential…");
    const group = screen.getByRole("group", { name: "New credential" });
    expect(group).toBeInTheDocument();
    await userEvent.type(screen.getByRole("textbox", { name: "New reference" }), "bad ref!");
    expect(screen.getByText("Use letters, digits, '.', '_' or '-' (up to 128), starting with a letter or digit.")).toBeInTheDocument();
    await userEvent.clear(screen.getByRole("textbox", { name: "New reference" }));
    await userEvent.type(screen.getByRole("textbox", { name: "New reference" }), "groq-key");
    await userEvent.type(screen.getByLabelText("Secret"), "sk-never-shown");
    await userEvent.click(screen.getByRole("button", { name: "Save credential" }));
    expect(call).toHaveBeenCalledWith(ROUTES.setCredential, { params: { ref: "groq-key" }, body: { secret: "sk-never-shown" } });
    await vi.waitFor(() => expect(onChange).toHaveBeenLastCalledWith("groq-key"));
    expect(screen.queryByRole("group", { name: "New credential" })).not.toBeInTheDocument();
    expect(document.body.innerHTML).not.toContain("sk-never-shown");
  });

  it("stores the new secret on Enter, from a masked field the browser neither fills nor spell-checks", async () => {
    const { call, onChange } = setup();
    await userEvent.selectOptions(picker(), "New credential…");
    await userEvent.type(screen.getByRole("textbox", { name: "New reference" }), "groq-key");
    const secret = screen.getByLabelText("Secret");
    expect(secret).toHaveAttribute("type", "password");
    expect(secret).toHaveAttribute("autocomplete", "new-password");
    expect(secret).toHaveAttribute("spellcheck", "false");
    await userEvent.type(secret, "sk-typed{Enter}");
    expect(call).toHaveBeenCalledWith(ROUTES.setCredential, { params: { ref: "groq-key" }, body: { secret: "sk-typed" } });
    await vi.waitFor(() => expect(onChange).toHaveBeenLastCalledWith("groq-key"));
  });
});
