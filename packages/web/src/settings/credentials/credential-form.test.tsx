import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState } from "react";
import { describe, expect, it, vi } from "vitest";
import { ApiError } from "../../api/client.js";
import { CredentialForm } from "./credential-form.js";

function Harness({ onSave }: { onSave: (ref: string, secret: string) => Promise<unknown> }) {
  const [replacing, setReplacing] = useState<string | null>(null);
  return (
    <>
      <button type="button" onClick={() => setReplacing("openai-key")}>
        Replace openai-key
      </button>
      <CredentialForm replacing={replacing} onSave={onSave} onCancelReplace={() => setReplacing(null)} />
    </>
  );
}

const secretInput = () => screen.getByLabelText("Secret") as HTMLInputElement;

describe("CredentialForm", () => {
  it("is a password field that empties once the secret is handed over", async () => {
    const onSave = vi.fn(async () => undefined);
    render(<Harness onSave={onSave} />);
    expect(secretInput()).toHaveAttribute("type", "password");
    expect(secretInput()).toHaveAttribute("autocomplete", "new-password");
    await userEvent.type(screen.getByLabelText("Reference"), "anthropic-key");
    await userEvent.type(secretInput(), "sk-live-123");
    await userEvent.click(screen.getByRole("button", { name: "Save credential" }));
    expect(onSave).toHaveBeenCalledWith("anthropic-key", "sk-live-123");
    expect(secretInput().value).toBe("");
    expect(screen.getByRole("status")).toHaveTextContent("Saved anthropic-key.");
    expect(document.body.innerHTML).not.toContain("sk-live-123");
  });

  it("empties the secret on a failure too, and shows the daemon's message", async () => {
    const onSave = vi.fn(async () => {
      throw new ApiError(400, "VALIDATION_FAILED", "the secret is too long");
    });
    render(<Harness onSave={onSave} />);
    await userEvent.type(screen.getByLabelText("Reference"), "k1");
    await userEvent.type(secretInput(), "oops");
    await userEvent.click(screen.getByRole("button", { name: "Save credential" }));
    expect(screen.getByRole("alert")).toHaveTextContent("the secret is too long");
    expect(secretInput().value).toBe("");
  });

  it("never pre-fills the secret when replacing one: only the ref is filled in", async () => {
    render(<Harness onSave={vi.fn(async () => undefined)} />);
    await userEvent.type(secretInput(), "half-typed");
    await userEvent.click(screen.getByRole("button", { name: "Replace openai-key" }));
    expect(screen.getByLabelText("Reference")).toHaveValue("openai-key");
    expect(screen.getByLabelText("Reference")).toHaveAttribute("readonly");
    expect(secretInput().value).toBe("");
    expect(secretInput()).toHaveFocus();
    expect(screen.getByRole("button", { name: "Replace secret" })).toBeDisabled();
  });

  it("validates the ref inline", async () => {
    render(<Harness onSave={vi.fn(async () => undefined)} />);
    await userEvent.type(screen.getByLabelText("Reference"), "-bad ref");
    expect(screen.getByLabelText("Reference")).toHaveAttribute("aria-invalid", "true");
    expect(screen.getByText(/starting with a letter or digit/)).toBeInTheDocument();
    await userEvent.type(secretInput(), "x");
    expect(screen.getByRole("button", { name: "Save credential" })).toBeDisabled();
  });
});
