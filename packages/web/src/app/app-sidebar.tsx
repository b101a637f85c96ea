import { useRef, useState } from "react";
import { NavLink } from "react-router";
import { ShortcutList } from "../chat/shortcuts/shortcut-list.js";
import { useApi } from "../api/api-context.js";
import { useConversationList } from "../api/queries.js";
import { Icon, type IconName } from "../ui/icons.js";
import { useTheme, type ThemePref } from "./theme.js";

const THEMES: { value: ThemePref; label: string; icon: "monitor" | "sun" | "moon" }[] = [
  { value: "system", label: "System", icon: "monitor" },
  { value: "light", label: "Light", icon: "sun" },
  { value: "dark", label: "Dark", icon: "moon" },
];

/** Below Chat: the Vault and Settings groups, each under a caption; every item is a route. */
const GROUPS: { caption: string; items: { to: string; label: string; icon: IconName }[] }[] = [
  {
    caption: "Vault",
    items: [
      { to: "/vault/skills", label: "Skills", icon: "sparkles" },
      { to: "/vault/memory", label: "Memory", icon: "brain" },
      { to: "/vault/knowledge", label: "Knowledge", icon: "book" },
      { to: "/vault/mcp", label: "MCP servers", icon: "server" },
      { to: "/vault/mcp/log", label: "Tool calls log", icon: "list" },
    ],
  },
  {
    caption: "Settings",
    items: [
      { to: "/settings/connections", label: "LLM Connections", icon: "plug" },
      { to: "/settings/credentials", label: "Credentials", icon: "key" },
      { to: "/settings/channels", label: "Channels", icon: "phone" },
      { to: "/settings/data", label: "Data", icon: "database" },
      { to: "/settings/alerts", label: "Alerts", icon: "bell" },
    ],
  },
];

/** The app sidebar: Chat is the top-most item (it is where the owner works most), with a count of running conversations. */
export function AppSidebar() {
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
      <div className="brand">
        <span className="brand-mark" aria-hidden="true" />
        <span className="brand-name">Coffer</span>
      </div>
      <nav aria-label="Main">
        <ul className="nav-list">
          <li>
            <NavLink to="/chat" className="nav-item" title="Chat">
              <Icon name="chat" />
              <span className="nav-label">Chat</span>
              {running > 0 && (
                <span className="nav-badge" title={`${running} running`}>
                  {running}
                  <span className="sr-only"> running</span>
                </span>
              )}
            </NavLink>
          </li>
          {GROUPS.map((g) => (
            <li key={g.caption} className="nav-group">
              <span className="nav-caption" id={`nav-${g.caption}`}>
                {g.caption}
              </span>
              <ul className="nav-list" aria-labelledby={`nav-${g.caption}`}>
                {g.items.map((item) => (
                  <li key={item.to}>
                    <NavLink to={item.to} end className="nav-item" title={item.label}>
                      <Icon name={item.icon} />
                      <span className="nav-label">{item.label}</span>
                    </NavLink>
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ul>
      </nav>
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
      {shortcuts && (
        <ShortcutList
          onClose={() => {
            setShortcuts(false);
            requestAnimationFrame(() => shortcutsButton.current?.focus());
          }}
        />
      )}
    </aside>
  );
}
