import { Suspense, useRef, useState } from "react";
import { lazyPart } from "../ui/lazy-part.js";
import { useLocation } from "react-router";
import { useApi } from "../api/api-context.js";
import { useConversationList } from "../api/queries.js";
import { Icon } from "../ui/icons.js";
import { useIsPhone } from "../ui/use-media-query.js";
import { APP_MENU_ID, MainNav, sectionOf } from "./main-nav.js";
import { useTheme, type ThemePref } from "./theme.js";

// Only a phone ever opens the menu sheet: it loads on first open, off the main bundle's budget.
const AppMenuSheet = lazyPart(() => import("./app-menu-sheet.js"));
// The shortcut list opens on a tap: its own chunk (shared with the Chat's ? key).
const ShortcutList = lazyPart(() => import("../chat/shortcuts/shortcut-list.js").then((m) => ({ default: m.ShortcutList })));

const THEMES: { value: ThemePref; label: string; icon: "monitor" | "sun" | "moon" }[] = [
  { value: "system", label: "System", icon: "monitor" },
  { value: "light", label: "Light", icon: "sun" },
  { value: "dark", label: "Dark", icon: "moon" },
];

/**
 * The app sidebar: the destinations (main-nav.tsx) and the theme, shortcuts and sign-out. At
 * phone width it is a top bar instead: a labelled menu button that opens every destination
 * with its name (app-menu-sheet.tsx), the section the owner is in, and the theme button.
 */
export function AppSidebar() {
  const phone = useIsPhone();
  const [menu, setMenu] = useState(false);
  const location = useLocation();
  const place = sectionOf(location.pathname);
  const active = useConversationList(false, "");
  const running = active.data?.pages.reduce((n, p) => n + p.conversations.filter((c) => c.running).length, 0) ?? 0;
  const [theme, setTheme] = useTheme();
  const api = useApi();
  // The shortcuts list had only its "?" key: this button is the visible way in (issue 15 review).
  const [shortcuts, setShortcuts] = useState(false);
  const shortcutsButton = useRef<HTMLButtonElement>(null);
  const at = Math.max(0, THEMES.findIndex((t) => t.value === theme));
  const current = THEMES[at]!;
  const next = THEMES[(at + 1) % THEMES.length]!;
  return (
    <aside className="sidebar" aria-label="Application">
      {phone && (
        <button
          type="button"
          className="icon-btn menu-btn"
          aria-label="Menu"
          aria-haspopup="dialog"
          aria-expanded={menu}
          aria-controls={APP_MENU_ID}
          onClick={() => setMenu(true)}
        >
          <Icon name="menu" />
          {/* Something runs: the menu's Chat row says how many. */}
          {running > 0 && <span className="menu-btn-dot" />}
        </button>
      )}
      <div className="brand">
        <span className="brand-mark" aria-hidden="true" />
        <span className="brand-name">Coffer</span>
      </div>
      {phone ? <span className="topbar-place">{place}</span> : <MainNav running={running} />}
      <div className="sidebar-foot">
        {/* A narrow rail or the phone's top bar has room for one button: it steps system → light → dark
            and says both the theme now and the one a press gives (styles/phone.css, app.css). */}
        <button
          type="button"
          className="icon-btn theme-cycle"
          aria-label={`Theme: ${current.label}. Switch to ${next.label.toLowerCase()} theme`}
          title={`${current.label} theme — switch to ${next.label.toLowerCase()}`}
          onClick={() => setTheme(next.value)}
        >
          <Icon name={current.icon} />
        </button>
        <div role="radiogroup" aria-label="Theme" className="theme-switch">
          {THEMES.map((t) => (
            <button
              key={t.value}
              type="button"
              role="radio"
              aria-checked={theme === t.value}
              aria-label={`${t.label} theme`}
              title={`${t.label} theme`}
              className="icon-btn"
              onClick={() => setTheme(t.value)}
            >
              <Icon name={t.icon} />
            </button>
          ))}
        </div>
        <button
          ref={shortcutsButton}
          type="button"
          className="icon-btn shortcuts-btn"
          aria-label="Keyboard shortcuts"
          aria-haspopup="dialog"
          title="Keyboard shortcuts (?)"
          onClick={() => setShortcuts(true)}
        >
          <Icon name="keyboard" />
        </button>
        <button type="button" className="icon-btn sign-out-btn" aria-label="Sign out" title="Sign out" onClick={() => void api.signOut()}>
          <Icon name="sign-out" />
        </button>
      </div>
      {phone && menu && (
        <Suspense fallback={null}>
          <AppMenuSheet running={running} locationKey={location.key} onClose={() => setMenu(false)} onSignOut={() => void api.signOut()} />
        </Suspense>
      )}
      {shortcuts && (
        <Suspense fallback={null}>
          <ShortcutList
            onClose={() => {
              setShortcuts(false);
              requestAnimationFrame(() => shortcutsButton.current?.focus());
            }}
          />
        </Suspense>
      )}
    </aside>
  );
}
