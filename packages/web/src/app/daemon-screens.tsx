import type { GuardState } from "../api/daemon-guard.js";

/** What the page says when it cannot (or may not) talk to the daemon on this port. */
const TEXT: Record<Exclude<GuardState, "starting" | "ok">, { title: string; body: string }> = {
  impostor: {
    title: "The process on this port is not your Coffer daemon",
    body:
      "It could not prove it holds this page's session, so the page sent it nothing and stopped. " +
      "Your daemon may have stopped and another program taken its port. Start it with `coffer start`, then run `coffer open`.",
  },
  ended: {
    title: "Session ended",
    body: "This page's session ended: it was unused for too long, it was signed out, or the daemon stopped or restarted. Run `coffer open` to sign in again.",
  },
  "signed-out": {
    title: "Signed out",
    body: "This page's session has ended. Run `coffer open` to sign in again.",
  },
  "no-credential": {
    title: "Open Coffer with `coffer open`",
    body: "The page is not signed in. Run `coffer open`: it checks the daemon is yours, then opens this page signed in.",
  },
  "link-used": {
    title: "This sign-in link was already used or has expired",
    body: "Sign-in links work once, for 60 seconds. Run `coffer open` again.",
  },
};

function Body({ text }: { text: string }) {
  // `code` spans for the commands, so they read as something to type.
  return <p>{text.split("`").map((part, i) => (i % 2 ? <code key={i}>{part}</code> : part))}</p>;
}

export function DaemonScreen({ state, overlay }: { state: Exclude<GuardState, "starting" | "ok">; overlay?: boolean }) {
  const text = TEXT[state];
  const screen = (
    <div className="no-token" role="alertdialog" aria-labelledby="daemon-screen-title">
      <h1 id="daemon-screen-title">{text.title}</h1>
      <Body text={text.body} />
    </div>
  );
  // Over the app, not instead of it: nothing typed in the composer is thrown away.
  return overlay ? <div className="daemon-overlay">{screen}</div> : screen;
}
