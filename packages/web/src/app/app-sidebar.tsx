import { NavLink } from "react-router";
import { useConversationList } from "../api/queries.js";
import { Icon } from "../ui/icons.js";
import { useTheme, type ThemePref } from "./theme.js";

const THEMES: { value: ThemePref; label: string; icon: "monitor" | "sun" | "moon" }[] = [
  { value: "system", label: "System", icon: "monitor" },
  { value: "light", label: "Light", icon: "sun" },
  { value: "dark", label: "Dark", icon: "moon" },
];

/** The app sidebar: Chat is the top-most item (FR-028), with a count of running conversations. */
export function AppSidebar() {
  const active = useConversationList(false, "");
  const running = active.data?.pages.reduce((n, p) => n + p.conversations.filter((c) => c.running).length, 0) ?? 0;
  const [theme, setTheme] = useTheme();
  return (
    <aside className="sidebar" aria-label="Application">
      <div className="brand">
        <span className="brand-mark" aria-hidden="true" />
        <span className="brand-name">Coffer</span>
      </div>
      <nav aria-label="Main">
        <ul className="nav-list">
          <li>
            <NavLink to="/chat" className="nav-item">
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
        </ul>
      </nav>
      <div className="sidebar-foot">
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
      </div>
    </aside>
  );
}
