import { NavLink } from "react-router";
import { Icon, type IconName } from "../ui/icons.js";

export interface Destination {
  readonly to: string;
  readonly label: string;
  readonly icon: IconName;
}

/** The phone's menu sheet's id: the top bar's button names it in `aria-controls`. */
export const APP_MENU_ID = "app-menu";

export const CHAT: Destination = { to: "/chat", label: "Chat", icon: "chat" };

/** Below Chat: the Vault and Settings groups, each under a caption; every item is a route. */
export const GROUPS: { caption: string; items: readonly Destination[] }[] = [
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
      { to: "/settings/schedules", label: "Schedules", icon: "clock" },
      { to: "/settings/data", label: "Data", icon: "database" },
      { to: "/settings/alerts", label: "Alerts", icon: "bell" },
    ],
  },
];

/**
 * The part of the app a path is in — "Chat", "Vault" or "Settings" — for the phone's top bar:
 * the page's own title sits right under it, so the bar names the section, as a breadcrumb does.
 */
export const sectionOf = (pathname: string): string => GROUPS.find((g) => g.items.some((d) => pathname.startsWith(d.to)))?.caption ?? CHAT.label;

/**
 * The app's destinations: Chat first (where the owner works most, with a count of running
 * conversations), then Vault and Settings. The desktop rail and the phone's menu sheet both
 * show this one list (never both at once: the rail is not drawn at phone width).
 */
export function MainNav({ running }: { running: number }) {
  return (
    <nav aria-label="Main">
      <ul className="nav-list">
        <li>
          <NavLink to={CHAT.to} className="nav-item" title={CHAT.label}>
            <Icon name={CHAT.icon} />
            <span className="nav-label">{CHAT.label}</span>
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
  );
}
