import { useEffect, useState } from "react";
import { Route, Routes } from "react-router";
import type { ChatLayoutProps } from "./chat-layout-props.js";
import { ConversationPage } from "./conversation-page.js";
import { DraftPage } from "./draft/draft-page.js";
import { HistoryColumn } from "./history/history-column.js";
import { ChatShortcuts } from "./shortcuts/chat-shortcuts.js";

const KEY = "coffer.historyOpen";

/** History | thread. The history's collapse state persists and snaps (never tweened). */
export function ChatLayout() {
  const [open, setOpen] = useState(() => localStorage.getItem(KEY) !== "false");
  useEffect(() => localStorage.setItem(KEY, String(open)), [open]);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === "b") {
        e.preventDefault();
        setOpen((o) => !o);
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
  const layout: ChatLayoutProps = { historyOpen: open, onOpenHistory: () => setOpen(true) };
  return (
    <div className={`chat ${open ? "" : "chat-history-closed"}`}>
      {open && <HistoryColumn onCollapse={() => setOpen(false)} />}
      <Routes>
        <Route index element={<DraftPage {...layout} />} />
        <Route path=":id" element={<ConversationPage {...layout} />} />
      </Routes>
      <ChatShortcuts onOpenHistory={layout.onOpenHistory} />
    </div>
  );
}
