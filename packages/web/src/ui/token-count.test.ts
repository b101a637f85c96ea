import { describe, expect, it } from "vitest";
import { formatTokens } from "./token-count.js";

describe("formatTokens", () => {
  it("shows small counts whole, thousands as k and millions as M", () => {
    expect(formatTokens(0)).toBe("0");
    expect(formatTokens(950)).toBe("950");
    expect(formatTokens(1000)).toBe("1k");
    expect(formatTokens(1234)).toBe("1.2k");
    expect(formatTokens(200_000)).toBe("200k");
    expect(formatTokens(999_400)).toBe("999k");
    // The case the gauge got wrong: a million-token window read "1000k".
    expect(formatTokens(999_500)).toBe("1M");
    expect(formatTokens(1_000_000)).toBe("1M");
    expect(formatTokens(1_500_000)).toBe("1.5M");
    expect(formatTokens(12_000_000)).toBe("12M");
  });
});
