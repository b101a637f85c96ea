import { expect, test } from "vitest";
import { parseSkillHeader } from "./skill-frontmatter.js";

test("a well-formed SKILL.md gives its name and description", async () => {
  expect(await parseSkillHeader("---\nname: format-python\ndescription: Format Python with black\n---\n# Body\n")).toEqual({
    name: "format-python",
    description: "Format Python with black",
  });
  expect(await parseSkillHeader("\uFEFF---\r\nname: x\r\ndescription: >\r\n  folded\r\n  text\r\n---\r\n")).toEqual({ name: "x", description: "folded text" });
});

test.each([
  ["# no frontmatter", /no frontmatter/],
  ["---\nname: [unclosed\ndescription: d\n---\n", /not valid YAML/],
  ["---\n- a\n- b\n---\n", /mapping/],
  ["---\ndescription: d\n---\n", /'name'/],
  ["---\nname: 42\ndescription: d\n---\n", /'name'/],
  ["---\nname: has space\ndescription: d\n---\n", /may use only/],
  ["---\nname: ok\n---\n", /'description'/],
  ["---\nname: ok\ndescription: ''\n---\n", /'description'/],
  [`---\nname: ok\ndescription: ${"d".repeat(1025)}\n---\n`, /longer than 1024/],
])("malformed frontmatter is a problem in words: %#", async (text, problem) => {
  const header = await parseSkillHeader(text);
  expect("problem" in header && header.problem).toMatch(problem);
});
