/**
 * What the chat layout hands each page. Its own file so the pages need not import the
 * layout that imports them (no import circles: scripts/check-dependencies.mjs).
 */
export interface ChatLayoutProps {
  readonly historyOpen: boolean;
  readonly onOpenHistory: () => void;
}
