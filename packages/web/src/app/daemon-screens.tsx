import type { ReactNode } from "react";
import type { GuardState } from "../api/daemon-guard.js";
import { openCommand, startCommand } from "./open-command.js";
import { useTheme } from "./theme.js";

type Screen = Exclude<GuardState, "starting" | "ok">;

/** A command to type: a `code` element, never text in backticks (issue 22). */
const Cmd = ({ children }: { children: string }) => <code className="daemon-command">{children}</code>;

/** What the page says when it cannot (or may not) talk to the daemon on this port. */
function text(state: Screen, open: string): { title: ReactNode; body: ReactNode } {
  // `npm run coffer -- open` works only inside the clone: say where (issue 22: a hint must work where it is followed).
  const where = open.startsWith("npm ") ? " in your Coffer folder" : "";
  const run = (
    <>
      <Cmd>{open}</Cmd>
      {where}
    </>
  );
  switch (state) {
    case "impostor":
      return {
        title: "The process on this port is not your Coffer daemon",
        body: (
          <>
            It could not prove it holds this page's session, so the page sent it nothing and stopped. Your daemon may have stopped and
            another program taken its port. Start it with <Cmd>{startCommand(open)}</Cmd>, then run {run}.
          </>
        ),
      };
    case "ended":
      return {
        title: "Session ended",
        body: <>This page's session ended: it was unused for too long, it was signed out, or the daemon stopped or restarted. Run {run} to sign in again.</>,
      };
    case "signed-out":
      return { title: "Signed out", body: <>This page's session has ended. Run {run} to sign in again.</> };
    case "no-credential":
      return {
        title: "Open Coffer from your terminal",
        body: <>The page is not signed in. Run {run}: it checks the daemon is yours, then opens this page signed in.</>,
      };
    case "link-used":
      return { title: "This sign-in link was already used or has expired", body: <>Sign-in links work once, for 60 seconds. Run {run} again.</> };
  }
}

export function DaemonScreen({ state, overlay }: { state: Screen; overlay?: boolean }) {
  // Shown instead of the app (which sets the theme) before sign-in: it follows the owner's theme too.
  useTheme();
  const { title, body } = text(state, openCommand());
  const screen = (
    <div className="no-token" role="alertdialog" aria-labelledby="daemon-screen-title">
      <h1 id="daemon-screen-title">{title}</h1>
      <p>{body}</p>
    </div>
  );
  // Over the app, not instead of it: nothing typed in the composer is thrown away.
  return overlay ? <div className="daemon-overlay">{screen}</div> : screen;
}
