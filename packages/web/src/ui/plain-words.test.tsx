import { ROUTES, type AlertSettingsOut, type ChannelOut } from "@coffer/protocol";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen, within } from "@testing-library/react";
import type { ReactNode } from "react";
import { MemoryRouter } from "react-router";
import { describe, expect } from "vitest";
import { acceptance } from "../../test/acceptance.js";
import { AlertsPage } from "../alerts/alerts-page.js";
import { ApiProvider } from "../api/api-context.js";
import type { CofferApi } from "../api/client.js";
import { ContextMeter } from "../chat/thread/context-gauge.js";
import { ConnectionsPage } from "../settings/connections/connections-page.js";
import { KnowledgePage } from "../vault/knowledge/knowledge-page.js";
import { McpServersPage } from "../vault/mcp/mcp-servers-page.js";
import { MemoryPage } from "../vault/memory/memory-page.js";
import { SkillsPage } from "../vault/skills/skills-page.js";
import { ToastProvider } from "./toasts.js";

// Issue 22, L: what the page says in words. The daemon is stood in for by a table of typed
// answers (a route without one never answers, so a page shows its loading state): the words
// are what is tested; the Alerts page runs against a real daemon and a fake Bot API in e2e/alerts.e2e.ts.
const stamp = "2026-12-04T12:00:00.000Z";
const alerts: AlertSettingsOut = {
  browser: { turn_finished: true, turn_failed: true, question_asked: true },
  telegram: { turn_finished: true, turn_failed: true, question_asked: true },
};
const channel = (over: Partial<ChannelOut> = {}): ChannelOut =>
  ({
    id: "ch1",
    kind: "telegram",
    name: "Phone",
    credentials: { bot_token: "tg" },
    bot_token_ref: "tg",
    default_agent: "claude_code",
    default_cwd: null,
    default_model: null,
    enabled: true,
    bot: { username: "coffer_bot", name: "Coffer" },
    owner: { name: "Ada", paired_at: stamp },
    ...over,
  }) as ChannelOut;

function mount(node: ReactNode, answers: Map<unknown, unknown> = new Map()) {
  const call = async (route: unknown) => (answers.has(route) ? answers.get(route) : new Promise(() => undefined));
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <ApiProvider api={{ call } as unknown as CofferApi}>
        <ToastProvider>
          <MemoryRouter>{node}</MemoryRouter>
        </ToastProvider>
      </ApiProvider>
    </QueryClientProvider>,
  );
}

/** An agent-facing tool name (coffer__recall, server__tool) or a code chip in a page's first words. */
const TOOL_NAME = /\w__\w/;

describe("plain words", () => {
  acceptance(
    "022-screens-true",
    "Vault pages introduce themselves in plain words, the context gauge says context and 1M, and the Alerts page offers Telegram only when a channel exists",
    async () => {
      // Each Vault page (and LLM Connections, which named coffer__ask) opens with a sentence a
      // person reads, not the names agents call tools by.
      for (const Page of [SkillsPage, MemoryPage, KnowledgePage, McpServersPage, ConnectionsPage]) {
        mount(<Page />);
        const heading = screen.getByRole("heading", { level: 1 });
        const lead = document.querySelector(".page-lead");
        expect(lead, `${heading.textContent} has an introduction`).not.toBeNull();
        expect(lead!.textContent, heading.textContent ?? "").not.toMatch(TOOL_NAME);
        expect(document.body.textContent, heading.textContent ?? "").not.toMatch(/coffer__/);
        document.body.innerHTML = "";
      }

      // The context gauge: the word "context", and a million-token window as 1M.
      mount(<ContextMeter used={250_000} windowTokens={1_000_000} />);
      const meter = screen.getByRole("meter");
      expect(meter).toHaveTextContent(/^context$/);
      expect(meter).toHaveAccessibleName("Context: 250k of 1M tokens (25%)");
      document.body.innerHTML = "";

      // Alerts with no channel: no Telegram column, and the way to set one up.
      mount(<AlertsPage />, new Map<unknown, unknown>([[ROUTES.getAlerts, alerts], [ROUTES.listChannels, { channels: [] }]]));
      await screen.findByRole("checkbox", { name: "Browser: a turn finished" });
      expect(screen.queryAllByRole("checkbox", { name: /^Telegram/ })).toEqual([]);
      expect(within(screen.getByRole("table", { name: "Which events alert" })).queryByText("Telegram")).toBeNull();
      expect(screen.getByRole("link", { name: "set up a Telegram channel" })).toHaveAttribute("href", "/settings/channels");
      document.body.innerHTML = "";

      // A channel that is not paired yet: Telegram is offered, and the page says it cannot deliver yet.
      mount(<AlertsPage />, new Map<unknown, unknown>([[ROUTES.getAlerts, alerts], [ROUTES.listChannels, { channels: [channel({ owner: null })] }]]));
      await screen.findByRole("checkbox", { name: "Telegram: a turn finished" });
      expect(screen.getByText(/Telegram alerts have nowhere to go/)).toBeInTheDocument();
      document.body.innerHTML = "";

      // An enabled, paired channel: Telegram is a destination like the browser.
      mount(<AlertsPage />, new Map<unknown, unknown>([[ROUTES.getAlerts, alerts], [ROUTES.listChannels, { channels: [channel()] }]]));
      expect(await screen.findByRole("checkbox", { name: "Telegram: the agent asks you" })).toBeChecked();
      expect(screen.queryByRole("link", { name: "set up a Telegram channel" })).toBeNull();
      expect(screen.queryByText(/nowhere to go/)).toBeNull();
    },
  );
});
