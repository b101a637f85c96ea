import { describe, expect, it } from "vitest";
import { plural } from "./plural.js";

describe("plural", () => {
  it("says 1 model, never 1 models; 0 and many take the plural", () => {
    expect(plural(1, "model")).toBe("1 model");
    expect(plural(0, "model")).toBe("0 models");
    expect(plural(12, "model")).toBe("12 models");
    expect(plural(2, "entry", "entries")).toBe("2 entries");
  });
});
