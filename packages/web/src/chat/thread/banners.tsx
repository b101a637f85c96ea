import { useEffect, useState } from "react";
import type { LinkState } from "../../api/live-link.js";
import type { TurnFailure } from "../live/apply-event.js";
import { Icon } from "../../ui/icons.js";

/** Readable words for the turn errors a person can act on; anything else shows its own message. */
function readable(error: TurnFailure): string {
  if (error.code === "turn_timeout") return "The agent went quiet for too long and was stopped.";
  if (error.code === "AGENT_UNAVAILABLE") return `The agent cannot start: ${error.message}`;
  // Daemon messages are written to follow a dash ("Failed — the model API…"); alone, a sentence.
  return error.message.charAt(0).toUpperCase() + error.message.slice(1);
}

export function TurnErrorBanner({ error, onDismiss }: { error: TurnFailure; onDismiss: () => void }) {
  return (
    <div className="banner banner-danger" role="alert">
      <Icon name="alert" />
      <span className="banner-text">{readable(error)}</span>
      <button type="button" className="btn btn-ghost btn-sm" onClick={onDismiss}>
        Dismiss
      </button>
    </div>
  );
}

/** Shown only after 2 s offline, so a blip that heals itself never flashes a banner. */
export function ConnectionBanner({ link, onReload }: { link: LinkState; onReload: () => void }) {
  const trouble = link.status === "reconnecting" || link.status === "stopped";
  const [shown, setShown] = useState(false);
  useEffect(() => {
    if (!trouble) return setShown(false);
    const t = setTimeout(() => setShown(true), 2000);
    return () => clearTimeout(t);
  }, [trouble]);
  if (!trouble || (!shown && link.status !== "stopped")) return null;
  return (
    <div className="banner banner-warning" role="status">
      <Icon name="wifiOff" />
      {link.status === "stopped" ? (
        <>
          <span className="banner-text">Live updates stopped. The agent keeps working.</span>
          <button type="button" className="btn btn-sm" onClick={onReload}>
            Reload
          </button>
        </>
      ) : (
        <span className="banner-text">
          Connection lost — reconnecting ({link.attempt}/{link.maxAttempts})
        </span>
      )}
    </div>
  );
}
