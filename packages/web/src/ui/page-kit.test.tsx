import { act, render, screen } from "@testing-library/react";
import { useState } from "react";
import { describe, expect, it } from "vitest";
import { DataTable } from "./page-kit.js";

const ok = { isPending: false, isError: false, isSuccess: true, error: null, refetch: () => undefined };

/** A table whose rows change on their own (an inline edit opens a full-width row). */
function Facts({ editing: initial = false }: { editing?: boolean }) {
  const [editing, setEditing] = useState(initial);
  return (
    <>
      <button type="button" onClick={() => setEditing((e) => !e)}>
        toggle
      </button>
      <DataTable label="Facts" columns={["Fact", { label: "Uses", numeric: true }, ""]} query={ok} loadingLabel="Loading" isEmpty={false} empty={null}>
        <tr>
          <td>tabs over spaces</td>
          <td className="num">3</td>
          <td>
            <button type="button">Edit</button>
          </td>
        </tr>
        {editing ? (
          <tr>
            <td colSpan={3}>an inline form</td>
          </tr>
        ) : (
          <tr>
            <td>prefers dark</td>
            <td className="num">1</td>
            <td />
          </tr>
        )}
      </DataTable>
    </>
  );
}

const labels = () =>
  [...screen.getByRole("table", { name: "Facts" }).querySelectorAll("tbody tr")].map((tr) => [...tr.querySelectorAll<HTMLElement>("td")].map((c) => c.dataset.label));

describe("DataTable at phone width", () => {
  it("names each body cell by its column, so a row can be drawn as a labelled card", () => {
    render(<Facts />);
    expect(labels()).toEqual([
      ["Fact", "Uses", ""],
      ["Fact", "Uses", ""],
    ]);
  });

  it("labels rows that appear later, and gives a full-width row no label", async () => {
    render(<Facts />);
    await act(async () => screen.getByRole("button", { name: "toggle" }).click());
    // The MutationObserver runs as a microtask after the DOM change.
    await act(async () => undefined);
    expect(labels()).toEqual([["Fact", "Uses", ""], [""]]);
  });
});
