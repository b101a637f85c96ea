import { describe, expect, it } from "vitest";
import { parseTelegramHtml } from "../../../test/support/telegram-html.js";
import { PART_LIMIT, renderTelegram } from "./telegram-format.js";

function one(markdown: string) {
  const parts = renderTelegram(markdown);
  expect(parts).toHaveLength(1);
  return parts[0]!;
}

/** Every <pre> opened in a part is closed in the same part (the parser checks nesting). */
function expectParses(html: string) {
  const parsed = parseTelegramHtml(html);
  expect(parsed, html.slice(0, 200)).toMatchObject({ ok: true });
}

function codeBlock(lang: string, lines: number, tag: string) {
  return "```" + lang + "\n" + Array.from({ length: lines }, (_, i) => `${tag} line ${i} <x> & "y"`).join("\n") + "\n```";
}

describe("renderTelegram", () => {
  it("renders headings as bold lines, inline styles, code and links", () => {
    const m = one("# Title\n\nSome **bold**, *italic*, ~~gone~~ and `a<b>`; see [docs](https://ex.com/?a=1&b=2).");
    expect(m.html).toBe(
      '<b>Title</b>\n\nSome <b>bold</b>, <i>italic</i>, <s>gone</s> and <code>a&lt;b&gt;</code>; see <a href="https://ex.com/?a=1&amp;b=2">docs</a>.',
    );
    expect(m.text).toBe("Title\n\nSome bold, italic, gone and a<b>; see docs (https://ex.com/?a=1&b=2).");
    expect(m.silent).toBeUndefined();
    expectParses(m.html!);
  });

  it("renders fenced code with its language, escaping inside", () => {
    const m = one("```ts\nif (a < b && c > d) {}\n```");
    expect(m.html).toBe('<pre><code class="language-ts">if (a &lt; b &amp;&amp; c &gt; d) {}</code></pre>');
    expect(m.text).toBe("if (a < b && c > d) {}");
    expect(one("```\nplain\n```").html).toBe("<pre>plain</pre>");
  });

  it("renders lists and quotes with Telegram's tags only", () => {
    const m = one("- one\n- two\n  - nested\n\n3. x\n4. y\n\n> quoted **q**");
    expect(m.html).toBe("• one\n• two\n  • nested\n\n3. x\n4. y\n\n<blockquote>quoted <b>q</b></blockquote>");
    expectParses(m.html!);
  });

  it("draws task lists and tables", () => {
    expect(one("- [x] done\n- [ ] todo").html).toBe("• ☑ done\n• ☐ todo");
    expect(one("| a | b |\n|---|---|\n| 1 | <2> |").html).toBe("<pre>a | b\n1 | &lt;2&gt;</pre>");
  });

  it("escapes HTML special characters everywhere and shows raw HTML as typed", () => {
    const m = one("1 < 2 & 3 > 2 <script>alert(1)</script>\n\n<div>block</div>");
    expect(m.html).not.toMatch(/<(script|div)/);
    expect(m.html).toContain("1 &lt; 2 &amp; 3 &gt; 2 &lt;script&gt;");
    expectParses(m.html!);
    const parsed = parseTelegramHtml(m.html!);
    expect(parsed.ok && parsed.text).toBe(m.text);
  });

  it("drops links with unsafe schemes to their text", () => {
    const m = one("[click](javascript:alert(1))");
    expect(m.html).toBe("click");
  });

  it("keeps only http(s) links: tg://, mailto:, javascript: and other schemes become plain text (issue 21)", () => {
    const hostile = [
      "[login](tg://resolve?domain=evil_bot&start=x)",
      "<tg://join?invite=abc>",
      "[Up](TG://user?id=1)",
      "![pic](tg://user?id=2)",
      "[mail](mailto:eve@example.com)",
      "[run](JavaScript:alert(1))",
      "[data](data:text/html,hi)",
      "[file](file:///etc/passwd)",
      "[ftp](ftp://example.com/x)",
      "[ok](https://example.com/a) [ok2](http://example.com/b)",
    ].join("\n\n");
    const m = one(hostile);
    expectParses(m.html!);
    expect([...m.html!.matchAll(/href="([^"]*)"/g)].map((x) => x[1])).toEqual(["https://example.com/a", "http://example.com/b"]);
    expect(m.html).toContain("login");
    expect(m.text).toContain("login");
    expect(m.text).not.toMatch(/tg:\/\/resolve|mailto:|javascript:/i);
  });

  it("splits a long answer with several code blocks into balanced, marked parts", () => {
    const sections: string[] = [];
    for (let i = 0; i < 6; i++) {
      sections.push(`## Step ${i}\n\n` + `Paragraph ${i} explains **things** & more. `.repeat(20));
      sections.push(codeBlock("py", 40, `S${i}`));
    }
    const parts = renderTelegram(sections.join("\n\n"));
    expect(parts.length).toBeGreaterThan(2);
    parts.forEach((p, i) => {
      expect(p.html!.length).toBeLessThan(4096);
      expect(p.text.length).toBeLessThan(4096);
      expect(p.html!.startsWith(`(${i + 1}/${parts.length}) `)).toBe(true);
      expect(p.text.startsWith(`(${i + 1}/${parts.length}) `)).toBe(true);
      expect(p.silent).toBe(i === 0 ? undefined : true);
      expectParses(p.html!);
    });
    // Every code line arrives exactly once, inside a <pre> of its part.
    const all = parts.map((p) => p.html).join("\n");
    for (let s = 0; s < 6; s++) {
      for (let l = 0; l < 40; l++) {
        expect(all.split(`S${s} line ${l} &lt;x&gt;`).length - 1).toBe(1);
      }
    }
  });

  it("cuts an over-long code block into several complete <pre> blocks", () => {
    const parts = renderTelegram(codeBlock("rust", 400, "X"));
    expect(parts.length).toBeGreaterThanOrEqual(4);
    for (const p of parts) {
      expect(p.html!.length).toBeLessThanOrEqual(PART_LIMIT);
      expect(p.html).toMatch(/^\(\d+\/\d+\) <pre><code class="language-rust">[\s\S]*<\/code><\/pre>$/);
      expectParses(p.html!);
    }
    const lines = parts.flatMap((p) => p.text.replace(/^\(\d+\/\d+\) /, "").split("\n"));
    expect(lines).toEqual(Array.from({ length: 400 }, (_, i) => `X line ${i} <x> & "y"`));
  });

  it("cuts a single line longer than a message without breaking an entity", () => {
    const parts = renderTelegram("```\n" + "<&>".repeat(3000) + "\n```");
    expect(parts.length).toBeGreaterThan(1);
    for (const p of parts) {
      expect(p.html!.length).toBeLessThanOrEqual(PART_LIMIT);
      expectParses(p.html!);
    }
    expect(parts.map((p) => p.text.replace(/^\(\d+\/\d+\) /, "")).join("")).toBe("<&>".repeat(3000));
  });

  it("splits a long paragraph between lines, then at spaces", () => {
    const para = Array.from({ length: 300 }, (_, i) => `line ${i} with **bold** text`).join("\n");
    const huge = "word ".repeat(2000);
    const parts = renderTelegram(para + "\n\n" + huge);
    for (const p of parts) {
      expect(p.html!.length).toBeLessThanOrEqual(PART_LIMIT);
      expectParses(p.html!);
    }
    expect(parts.map((p) => p.text).join(" ").match(/word/g)).toHaveLength(2000);
  });

  it("returns nothing for an empty answer", () => {
    expect(renderTelegram("")).toEqual([]);
  });
});
