import { describe, expect, it } from "vitest";
import { formQuestions } from "./elicitation-form.js";

const params = {
  threadId: "th",
  turnId: "tu",
  serverName: "deploy",
  mode: "form",
  _meta: null,
  message: "Deploy settings",
  requestedSchema: {
    type: "object",
    properties: {
      env: { type: "string", title: "Environment", oneOf: [{ const: "prod", title: "Production" }, { const: "stg", title: "Staging" }] },
      regions: { type: "array", items: { enum: ["eu", "us"] } },
      confirm: { type: "boolean", description: "Really?" },
      replicas: { type: "integer" },
      note: { type: "string" },
    },
    required: ["env"],
  },
};

describe("formQuestions", () => {
  it("puts each field to the owner and turns the answers into the form's content", () => {
    const form = formQuestions(params)!;
    expect(form.questions.map((q) => [q.header, q.text, q.options.map((o) => o.label), q.multi_select, q.allow_free_text])).toEqual([
      ["Environment", "Deploy settings", ["Production", "Staging"], false, false],
      ["regions", "Deploy settings", ["eu", "us"], true, false],
      ["confirm", "Deploy settings — Really?", ["Yes", "No"], false, false],
      ["replicas", "Deploy settings", [], false, true],
      ["note", "Deploy settings", [], false, true],
    ]);
    const content = form.toContent([
      { selected: ["Staging"] },
      { selected: ["eu", "us"] },
      { selected: ["No"] },
      { selected: [], text: "3" },
      { selected: [], text: "careful" },
    ]);
    expect(content).toEqual({ env: "stg", regions: ["eu", "us"], confirm: false, replicas: 3, note: "careful" });
  });

  it("makes a field outside the schema's required list optional, and leaves it out of the content when left empty", () => {
    const form = formQuestions(params)!;
    // Only env is required.
    expect(form.questions.map((q) => [q.header, q.optional ?? false])).toEqual([
      ["Environment", false],
      ["regions", true],
      ["confirm", true],
      ["replicas", true],
      ["note", true],
    ]);
    const content = form.toContent([{ selected: ["Production"] }, { selected: [] }, { selected: [] }, { selected: [], text: "" }, { selected: [], text: "  " }]);
    // Not "" or 0 or [] or false: an optional property the owner skipped is absent.
    expect(content).toEqual({ env: "prod" });
  });

  it("treats every field as optional when the schema lists none as required (JSON Schema's default)", () => {
    const { required: _, ...schema } = params.requestedSchema;
    const form = formQuestions({ ...params, requestedSchema: schema })!;
    expect(form.questions.every((q) => q.optional === true)).toBe(true);
  });

  it("leaves URL elicitations and empty forms to the policy", () => {
    expect(formQuestions({ ...params, mode: "url", url: "x", elicitationId: "e" })).toBeNull();
    expect(formQuestions({ ...params, requestedSchema: { type: "object", properties: {} } })).toBeNull();
  });
});
