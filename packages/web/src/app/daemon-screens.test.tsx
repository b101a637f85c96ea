import { OPEN_COMMAND_META } from "@coffer/protocol";
import { render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { acceptance } from "../../test/acceptance.js";
import { DaemonScreen } from "./daemon-screens.js";

const SPEC = "022-screens-true";
const STATES = ["no-credential", "ended", "signed-out", "link-used", "impostor"] as const;

/** The `<meta>` the daemon puts in index.html (packages/daemon/src/http/web-assets.ts). */
function served(openCommand: string | null) {
  document.head.querySelector(`meta[name="${OPEN_COMMAND_META}"]`)?.remove();
  if (openCommand === null) return;
  const meta = document.createElement("meta");
  meta.name = OPEN_COMMAND_META;
  meta.content = openCommand;
  document.head.append(meta);
}

afterEach(() => served(null));

describe("the signed-out page", () => {
  acceptance(SPEC, "from a fresh clone the first start opens the page signed in through the private hand-off, and every printed hint names a command that works where it is printed", () => {
    served("npm run coffer -- open");
    for (const state of STATES) {
      const { container, unmount } = render(<DaemonScreen state={state} />);
      // Commands are code elements, never text in backticks (issue 22), title included.
      expect(container.textContent).not.toContain("`");
      const commands = [...container.querySelectorAll("code")].map((c) => c.textContent);
      expect(commands).toContain("npm run coffer -- open");
      expect(commands.every((c) => c === "npm run coffer -- open" || c === "npm start")).toBe(true);
      unmount();
    }
  });

  it("names `coffer open` when the daemon was started by an installed coffer (or says nothing)", () => {
    served(null);
    render(<DaemonScreen state="no-credential" />);
    expect(screen.getByRole("heading")).toHaveTextContent("Open Coffer from your terminal");
    expect(screen.getByText("coffer open", { selector: "code" })).toBeInTheDocument();
  });

  it("tells an impostor's visitor to start the daemon with the start command that goes with it", () => {
    served("coffer open");
    const { container } = render(<DaemonScreen state="impostor" />);
    expect([...container.querySelectorAll("code")].map((c) => c.textContent)).toEqual(["coffer start", "coffer open"]);
  });
});
