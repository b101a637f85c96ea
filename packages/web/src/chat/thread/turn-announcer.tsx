import { useEffect, useRef, useState } from "react";
import { useLive } from "../live/use-live.js";

/** A hidden live region that speaks per turn, never per token. */
export function TurnAnnouncer({ agentName }: { agentName: string }) {
  const phase = useLive((s) => {
    const t = s.view.turns[s.view.turns.length - 1];
    return t ? `${t.assistantMessageId}:${t.phase}` : "";
  });
  // The failed reply holds its own error (the banner's is only for errors no reply shows).
  const error = useLive((s) => s.view.turns[s.view.turns.length - 1]?.error ?? s.view.error);
  const waiting = useLive((s) => s.view.pending.length);
  const paused = useLive((s) => s.view.paused);
  const [text, setText] = useState("");
  const first = useRef(true);
  useEffect(() => {
    if (first.current) return;
    if (phase.endsWith(":streaming")) setText(`${agentName} is responding`);
    else if (phase.endsWith(":done")) setText("Reply finished");
    else if (phase.endsWith(":failed")) setText(`Turn failed: ${error?.message ?? "unknown error"}`);
  }, [phase]); // eslint-disable-line react-hooks/exhaustive-deps
  useEffect(() => {
    if (first.current) return;
    if (paused && waiting) setText("Queue paused");
    else if (waiting) setText(`Queued (${waiting} waiting)`);
  }, [waiting, paused]);
  useEffect(() => {
    first.current = false;
  }, []);
  return (
    <div className="sr-only" role="status">
      {text}
    </div>
  );
}
