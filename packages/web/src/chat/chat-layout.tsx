import { useEffect, useState } from "react";
import { Route, Routes, useLocation } from "react-router";
import { readStoredChoice, writeStored } from "../app/stored.js";
import { PHONE_QUERY, useIsPhone } from "../ui/use-media-query.js";
import type { ChatLayoutProps } from "./chat-layout-props.js";
import { ConversationPage } from "./conversation-page.js";
import { DraftPage } from "./draft/draft-page.js";
import { HistoryColumn } from "./history/history-column.js";
import { ChatShortcuts } from "./shortcuts/chat-shortcuts.js";
import { HistorySheet } from "./history/history-sheet.js";
import { loadReplyRenderer } from "./thread/reply-text.js";

const KEY = "coffer.historyOpen";

/**
 * History | thread. The history's collapse state persists and snaps (never tweened). At phone
 * width the history is a drawer instead: closed at first (the thread has the screen), never
 * persisted, and closed again once a conversation is picked.
 */
export function ChatLayout() {
  const phone = useIsPhone();
  const [open, setOpen] = useState(() => readStoredChoice(KEY, ["true", "false"]) !== "false");
  const [sheet, setSheet] = useState(false);
  useEffect(() => writeStored(KEY, String(open)), [open]);
  // Fetch the reply renderer's chunk as the Chat opens, before the first reply needs it.
  useEffect(() => void loadReplyRenderer().catch(() => undefined), []);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === "b") {
        e.preventDefault();
        if (matchMedia(PHONE_QUERY).matches) setSheet((o) => !o);
        else setOpen((o) => !o);
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
  // Whatever changed the page (a row, New chat, a shortcut), the drawer has done its job.
  const { pathname } = useLocation();
  useEffect(() => setSheet(false), [pathname]);

  const historyOpen = phone ? sheet : open;
  const layout: ChatLayoutProps = { historyOpen, onOpenHistory: () => (phone ? setSheet(true) : setOpen(true)) };
  return (
    <div className={`chat ${phone || !open ? "chat-history-closed" : ""}`}>
      {phone
        ? sheet && (
            <HistorySheet onClose={() => setSheet(false)}>
              <HistoryColumn variant="sheet" onCollapse={() => setSheet(false)} onPick={() => setSheet(false)} />
            </HistorySheet>
          )
        : open && <HistoryColumn onCollapse={() => setOpen(false)} />}
      <Routes>
        <Route index element={<DraftPage {...layout} />} />
        <Route path=":id" element={<ConversationPage {...layout} />} />
      </Routes>
      <ChatShortcuts onOpenHistory={layout.onOpenHistory} />
    </div>
  );
}
