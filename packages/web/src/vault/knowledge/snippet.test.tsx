import { render } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { MarkdownSnippet, Snippet } from "./snippet.js";

// The sanitizer's part (a document's HTML never runs, headings render) is proved in Chromium by
// e2e/vault-upload.e2e.ts: happy-dom's DOM does not run DOMPurify faithfully.
describe("MarkdownSnippet", () => {
  it("renders the snippet's markdown with the [matches] marked, inside emphasis too", () => {
    const { container } = render(<MarkdownSnippet text={"The **[canary]** checks run before the [switch]…\n- `deploy`"} />);
    expect(Array.from(container.querySelectorAll("mark"), (m) => m.textContent)).toEqual(["canary", "switch"]);
    expect(container.querySelector("strong mark")).toHaveTextContent("canary");
    expect(container.querySelector("li code")).toHaveTextContent("deploy");
    expect(container.textContent).not.toMatch(/[[\]\uE000\uE001]/);
  });
});

describe("Snippet", () => {
  it("keeps plain text as written, matches marked", () => {
    const { container } = render(<Snippet text={"const x = a * b; // [canary]"} />);
    expect(container.textContent).toBe("const x = a * b; // canary");
    expect(container.querySelector("mark")).toHaveTextContent("canary");
  });
});
