import { render } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { Markdown } from "./markdown.js";

const EXFIL = "http://127.0.0.1:9/p.png?d=the%20conversation";
const PIXEL = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

function renderReply(text: string) {
  const { container } = render(<Markdown text={text} streaming={false} />);
  return container;
}

/** Every address in the rendered reply that a browser would fetch without a click. */
function autoFetched(container: HTMLElement): string[] {
  const urls: string[] = [];
  for (const el of Array.from(container.querySelectorAll("*"))) {
    for (const attr of ["src", "srcset", "poster", "background", "data"]) {
      const v = el.getAttribute(attr);
      if (v) urls.push(v);
    }
    if (el.getAttribute("style")) urls.push(`style:${el.getAttribute("style")}`);
    if (el.tagName === "STYLE" || el.tagName === "LINK") urls.push(el.tagName);
  }
  return urls;
}

// Raw HTML in a reply (<img>, srcset, media, style…) is covered in Chromium (e2e/reply-images.e2e.ts):
// happy-dom's DOM does not run DOMPurify faithfully, so only a real browser can say what survives.
describe("Markdown images", () => {
  it("a remote image becomes a link with its alt text that opens in a new tab, and no <img> is made", () => {
    const c = renderReply(`Look: ![the chart](${EXFIL})`);
    expect(c.querySelector("img")).toBeNull();
    const link = c.querySelector("a")!;
    expect(link.textContent).toBe("the chart");
    expect(link.getAttribute("href")).toBe(EXFIL);
    expect(link.getAttribute("target")).toBe("_blank");
    expect(link.getAttribute("rel")).toBe("noopener noreferrer");
    expect(autoFetched(c)).toEqual([]);
  });

  it("without alt text the link shows the address", () => {
    const c = renderReply(`![](${EXFIL})`);
    expect(c.querySelector("a")!.textContent).toBe(EXFIL);
  });

  it("a linked image keeps the outer link and shows its label, not a link inside a link", () => {
    const c = renderReply(`[![badge](${EXFIL})](https://example.invalid/page)`);
    const links = c.querySelectorAll("a");
    expect(links).toHaveLength(1);
    expect(links[0]!.getAttribute("href")).toBe("https://example.invalid/page");
    expect(links[0]!.textContent).toBe("badge");
    expect(c.querySelector("img")).toBeNull();
  });

  it("an inline data: image is still shown as an image", () => {
    const c = renderReply(`![dot](${PIXEL})`);
    expect(c.querySelector("img")?.getAttribute("src")).toBe(PIXEL);
    expect(c.querySelector("a")).toBeNull();
  });
});

// happy-dom's DOMPurify drops the <p> wrapper (see above), so the blocks are counted instead.
describe("Markdown line breaks", () => {
  it("keeps a single line break inside a paragraph as a break, not a merged line", () => {
    const c = renderReply("first line\nsecond line");
    expect(c.querySelectorAll(".md-block")).toHaveLength(1);
    expect(c.querySelector(".md-block")!.innerHTML).toMatch(/first line<br>\s*second line/);
  });

  it("a blank line still starts a new block", () => {
    const c = renderReply("one\n\ntwo");
    expect(c.querySelectorAll(".md-block")).toHaveLength(2);
    expect(c.querySelector("br")).toBeNull();
  });
});
