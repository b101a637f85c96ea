import { render, screen } from "@testing-library/react";
import { lazy, Suspense } from "react";
import { describe, expect, it } from "vitest";
import { PageCrash } from "../app/page-crash.js";
import { lazyPart } from "./lazy-part.js";

const Part = () => <span>the part</span>;

/** A chunk fetch that fails `failures` times (a daemon restarting), then works. */
function flakyChunk(failures: number) {
  let calls = 0;
  const load = () => {
    calls += 1;
    return calls <= failures ? Promise.reject(new TypeError("Failed to fetch dynamically imported module")) : Promise.resolve({ default: Part });
  };
  return { load, calls: () => calls };
}

const page = (Lazy: React.ComponentType) => (
  <PageCrash>
    <p>the rest of the page</p>
    <Suspense fallback={null}>
      <Lazy />
    </Suspense>
  </PageCrash>
);

describe("lazyPart", () => {
  it("fetches the chunk again after a failed fetch, and the part appears", async () => {
    const chunk = flakyChunk(2);
    render(page(lazyPart(chunk.load, { retryMs: [0, 0, 0] })));
    await screen.findByText("the part");
    expect(chunk.calls()).toBe(3);
    expect(screen.getByText("the rest of the page")).toBeInTheDocument();
  });

  it("when the chunk never arrives, only that part says so; the rest of the page stays", async () => {
    const chunk = flakyChunk(Infinity);
    render(page(lazyPart(chunk.load, { retryMs: [0, 0] })));
    await screen.findByText(/Part of this page did not load/);
    expect(chunk.calls()).toBe(3);
    expect(screen.getByRole("button", { name: "Reload" })).toBeInTheDocument();
    expect(screen.getByText("the rest of the page")).toBeInTheDocument();
  });

  it("a render error anywhere shows a way back instead of a blank page", async () => {
    const Broken = lazy(() => Promise.reject(new Error("chunk gone")));
    const quiet = console.error;
    console.error = () => undefined; // React reports the caught error; the assertion is what shows
    try {
      render(page(Broken));
      await screen.findByRole("alertdialog", { name: "This page hit an error" });
      expect(screen.getByText("chunk gone")).toBeInTheDocument();
    } finally {
      console.error = quiet;
    }
  });
});
