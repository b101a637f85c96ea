import type { AttachmentOut } from "@coffer/protocol";
import { render, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { ApiProvider } from "../../api/api-context.js";
import type { CofferApi } from "../../api/client.js";
import MessageAttachments from "./message-attachments.js";

// The bytes never arrive here (the thumbnail waits): what is asserted is the caption beside them.
const api = { attachmentBlob: () => new Promise<Blob>(() => undefined) } as unknown as CofferApi;
const shown = (attachments: AttachmentOut[]) =>
  render(
    <ApiProvider api={api}>
      <MessageAttachments attachments={attachments} />
    </ApiProvider>,
  );

describe("MessageAttachments", () => {
  it("shows the agent's line for a file it shared under that file, as plain text", () => {
    shown([
      { id: "a1", name: "chart.png", media_type: "image/png", size: 70, caption: "p95 latency, <b>last</b> 7 days" },
      { id: "a2", name: "report.pdf", media_type: "application/pdf", size: 3000, caption: "the weekly report" },
    ]);
    const items = within(screen.getByRole("list", { name: "Attachments" })).getAllByRole("listitem");
    expect(within(items[0]!).getByRole("figure").textContent).toContain("p95 latency, <b>last</b> 7 days");
    expect(items[0]!.querySelector("b")).toBeNull();
    expect(within(items[1]!).getByRole("button", { name: /report\.pdf/ })).toBeTruthy();
    expect(within(items[1]!).getByText("the weekly report").tagName).toBe("FIGCAPTION");
  });

  it("shows a file without a caption as the file alone", () => {
    shown([{ id: "a1", name: "notes.txt", media_type: "text/plain", size: 12 }]);
    expect(screen.queryByRole("figure")).toBeNull();
    expect(screen.getByRole("button", { name: /notes\.txt/ })).toBeTruthy();
  });
});
