import { render } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { SearchSnippet, snippetParts } from "./search-snippet.js";

describe("search snippets", () => {
  it("cuts the snippet at the highlight offsets", () => {
    expect(snippetParts("deploy to staging", [[0, 6], [10, 17]])).toEqual([
      { text: "deploy", hit: true },
      { text: " to ", hit: false },
      { text: "staging", hit: true },
    ]);
  });

  it("clips overlapping, unsorted and out-of-range offsets without losing text", () => {
    const parts = snippetParts("abcdef", [[4, 99], [1, 3], [2, 5], [3, 3]]);
    expect(parts.map((p) => p.text).join("")).toBe("abcdef");
    expect(parts).toEqual([
      { text: "a", hit: false },
      { text: "bc", hit: true },
      { text: "de", hit: true },
      { text: "f", hit: true },
    ]);
  });

  it("marks the matched terms in the rendered row", () => {
    const { container } = render(<SearchSnippet match={{ message_id: "m1", snippet: "run the deploy", highlights: [[8, 14]] }} />);
    expect([...container.querySelectorAll("mark")].map((m) => m.textContent)).toEqual(["deploy"]);
    expect(container.textContent).toBe("run the deploy");
  });
});
