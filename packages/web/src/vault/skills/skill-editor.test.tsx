import { ROUTES, type SkillCreate } from "@coffer/protocol";
import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { ApiError } from "../../api/client.js";
import { SkillEditor } from "./skill-editor.js";
import { renderWithApi } from "../../../test/render-with-api.js";

/** The daemon is a recorder of typed calls here; the real route runs in vault-uploads.test.ts and e2e/vault-upload.e2e.ts. */
function setup(answer: (body: SkillCreate) => unknown) {
  const call = vi.fn(async (route: unknown, args: { body: SkillCreate }) => {
    expect(route).toBe(ROUTES.createSkill);
    return answer(args.body);
  });
  const onDone = vi.fn();
  renderWithApi(<SkillEditor onDone={onDone} />, call);
  return { call, onDone };
}

const field = (name: string) => screen.getByRole("textbox", { name });

describe("SkillEditor", () => {
  it("shows what is wrong beside each field and sends nothing until it is right", async () => {
    const { call } = setup(() => null);
    await userEvent.click(screen.getByRole("button", { name: "Create skill" }));
    expect(field("Name")).toHaveAttribute("aria-invalid", "true");
    expect(field("Name")).toHaveAccessibleDescription(expect.stringContaining("Required."));
    expect(field("Description")).toHaveAccessibleDescription(expect.stringContaining("Required."));
    await userEvent.type(field("Name"), "has spaces");
    expect(field("Name")).toHaveAccessibleDescription(expect.stringContaining("Use letters, digits, '.', '_' and '-' (up to 64), starting with a letter or digit."));
    expect(call).not.toHaveBeenCalled();
  });

  it("sends name, description and body, then hands back the created skill", async () => {
    const created = { folder: "triage", name: "triage", description: "Sort new issues", problem: null, content: "…" };
    const { call, onDone } = setup(() => created);
    await userEvent.type(field("Name"), "triage");
    await userEvent.type(field("Description"), "Sort new issues");
    await userEvent.clear(field("SKILL.md body"));
    await userEvent.type(field("SKILL.md body"), "# Triage");
    await userEvent.click(screen.getByRole("button", { name: "Create skill" }));
    expect(call).toHaveBeenCalledWith(ROUTES.createSkill, { body: { name: "triage", description: "Sort new issues", body: "# Triage" } });
    await vi.waitFor(() => expect(onDone).toHaveBeenCalledWith(created));
  });

  it("puts the daemon's refusal on the field it is about: a taken name", async () => {
    const { onDone } = setup(() => {
      throw new ApiError(409, "SKILL_EXISTS", "a skill named 'triage' already exists", { name: "triage" });
    });
    await userEvent.type(field("Name"), "triage");
    await userEvent.type(field("Description"), "Sort new issues");
    await userEvent.click(screen.getByRole("button", { name: "Create skill" }));
    await screen.findByText("A skill with this name already exists.");
    expect(field("Name")).toHaveAttribute("aria-invalid", "true");
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
    // Changing the name clears the refusal: it was about the old one.
    await userEvent.type(field("Name"), "-2");
    expect(screen.queryByText("A skill with this name already exists.")).not.toBeInTheDocument();
    expect(onDone).not.toHaveBeenCalled();
  });

  it("previews the body as markdown", async () => {
    setup(() => null);
    await userEvent.clear(field("SKILL.md body"));
    await userEvent.type(field("SKILL.md body"), "Use **bold** steps");
    await userEvent.click(screen.getByRole("button", { name: "Preview" }));
    const preview = screen.getByLabelText("Preview of SKILL.md body");
    expect(preview.querySelector("strong")).toHaveTextContent("bold");
  });
});
