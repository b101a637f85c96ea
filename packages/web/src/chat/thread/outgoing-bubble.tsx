import type { AttachmentOut } from "@coffer/protocol";
import { UserBubble, MessageFiles } from "./messages.js";

export interface OutgoingMessage {
  readonly clientId: string;
  readonly text: string;
  /** Files sent with it (absent when none). */
  readonly attachments?: readonly AttachmentOut[];
  /** earlier: found in the page's storage from an earlier visit; it waits for the owner's Send or Discard. */
  readonly state: "sending" | "slow" | "failed" | "earlier";
}

export interface OutgoingActions {
  readonly retry: (clientId: string) => void;
  readonly sendEarlier: (clientId: string) => void;
  readonly discard: (clientId: string) => void;
}

/**
 * A message on its way: "Sending…", "Not sent · Retry", or, for one read back from storage,
 * "Not sent — from an earlier visit" with Send and Discard. Storage is not proof the owner
 * wrote it (docs/decisions.md, "Hardening II: the page's storage"), so only a click sends it.
 */
export function OutgoingBubble({ out, actions }: { out: OutgoingMessage; actions: OutgoingActions }) {
  const files = out.attachments?.length ? <MessageFiles attachments={out.attachments} /> : null;
  return <UserBubble text={out.text} note={<>{files}<OutgoingNote out={out} actions={actions} /></>} />;
}

function OutgoingNote({ out, actions }: { out: OutgoingMessage; actions: OutgoingActions }) {
  if (out.state === "earlier") {
    return (
      <div className="edit-resend-bar" role="group" aria-label="Not sent — from an earlier visit">
        <span className="hint">Not sent — from an earlier visit</span>
        <button type="button" className="btn btn-ghost btn-sm" aria-label="Discard the unsent message" onClick={() => actions.discard(out.clientId)}>
          Discard
        </button>
        <button type="button" className="btn btn-primary btn-sm" aria-label="Send the unsent message" onClick={() => actions.sendEarlier(out.clientId)}>
          Send
        </button>
      </div>
    );
  }
  if (out.state === "failed") {
    return (
      <span className="msg-note text-danger">
        Not sent ·{" "}
        <button type="button" className="link-btn" onClick={() => actions.retry(out.clientId)}>
          Retry
        </button>
      </span>
    );
  }
  return out.state === "slow" ? <span className="msg-note">Sending…</span> : null;
}
