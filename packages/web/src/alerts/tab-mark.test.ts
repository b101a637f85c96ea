import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { TabMark } from "./tab-mark.js";

const PLAIN_ICON = "data:image/svg+xml,plain";

beforeEach(() => {
  document.title = "Coffer";
  const link = document.createElement("link");
  link.rel = "icon";
  link.href = PLAIN_ICON;
  document.head.appendChild(link);
});
afterEach(() => document.head.querySelector('link[rel="icon"]')?.remove());

const icon = () => document.querySelector<HTMLLinkElement>('link[rel="icon"]')!.href;

describe("the tab mark", () => {
  test("counts alerts in the title, dots the icon, and looking again restores both exactly", () => {
    const mark = new TabMark();
    mark.mark();
    expect(document.title).toBe("(1) ● Coffer");
    expect(icon()).not.toBe(PLAIN_ICON);
    mark.mark();
    expect(document.title).toBe("(2) ● Coffer");
    mark.clear();
    expect(document.title).toBe("Coffer");
    expect(icon()).toBe(PLAIN_ICON);
    expect(mark.marked).toBe(0);
  });

  test("a title the app sets while marked is kept under the mark and survives the clear", () => {
    const mark = new TabMark();
    mark.mark();
    document.title = "Fix the build";
    mark.mark();
    expect(document.title).toBe("(2) ● Fix the build");
    mark.clear();
    expect(document.title).toBe("Fix the build");
  });

  test("clearing an unmarked tab changes nothing", () => {
    new TabMark().clear();
    expect(document.title).toBe("Coffer");
    expect(icon()).toBe(PLAIN_ICON);
  });
});
