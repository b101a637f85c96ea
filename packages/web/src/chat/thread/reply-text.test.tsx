import { act, render } from "@testing-library/react";
import { expect, it } from "vitest";
import { loadReplyRenderer, Markdown } from "./reply-text.js";

// One test per file on purpose: the renderer's chunk lands once per module instance, and the
// plain-text frame is only visible before it has.
it("shows a reply as plain escaped text until the renderer's chunk lands, then renders its Markdown in place", async () => {
  const text = "**bold** <img src=x onerror=alert(1)>\n\nsecond paragraph";
  const { container } = render(<Markdown text={text} streaming={false} />);
  const plain = Array.from(container.querySelectorAll(".md-plain")).map((p) => p.textContent);
  expect(plain).toEqual(["**bold** <img src=x onerror=alert(1)>", "second paragraph"]);
  expect(container.querySelector("img, strong")).toBeNull();

  await act(async () => void (await loadReplyRenderer()));
  expect(container.querySelector(".md-plain")).toBeNull();
  expect(container.querySelector(".markdown strong")?.textContent).toBe("bold");
  expect(container.querySelectorAll(".md-block")).toHaveLength(2);
});
