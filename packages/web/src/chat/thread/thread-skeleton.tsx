import { useShownAfter } from "../../ui/use-shown-after.js";

/**
 * The thread's shape while its first page of messages loads (a sent bubble, a reply's lines), so
 * the room between the header and the composer is never a blank that reads as "no messages".
 * Invisible for the first 300 ms, like every skeleton here: a fast load never flashes.
 */
export function ThreadSkeleton() {
  const shown = useShownAfter(300);
  return (
    <div className="thread-wrap" aria-busy="true">
      <div className="thread-scroll" role="status" aria-label="Loading messages" style={{ visibility: shown ? "visible" : "hidden" }}>
        <div className="thread-inner thread-skeleton">
          <div className="sk-sent" />
          <div className="sk-line" />
          <div className="sk-line" />
          <div className="sk-line sk-short" />
        </div>
      </div>
    </div>
  );
}
