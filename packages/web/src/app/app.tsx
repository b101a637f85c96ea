import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { Suspense, useState, useSyncExternalStore } from "react";
import { lazyPart } from "../ui/lazy-part.js";
import { BrowserRouter, Navigate, Route, Routes } from "react-router";
import { ApiProvider } from "../api/api-context.js";
import { CofferApi } from "../api/client.js";
import type { DaemonGuard } from "../api/daemon-guard.js";
import { ChatLayout } from "../chat/chat-layout.js";
import { useConversationListEvents } from "../chat/history/use-list-events.js";
import { useOwnerAlerts } from "../alerts/use-owner-alerts.js";
import { ToastProvider } from "../ui/toasts.js";
import { AppSidebar } from "./app-sidebar.js";
import { DaemonScreen } from "./daemon-screens.js";

// Vault and Settings load on first visit, with their own stylesheet: the chat opens without paying for them.
const VaultRoutes = lazyPart(() => import("../vault/vault-routes.js"), { route: true });
const SettingsRoutes = lazyPart(() => import("../settings/settings-routes.js"), { route: true });

function Shell() {
  useConversationListEvents(useOwnerAlerts());
  return (
    <div className="app">
      <AppSidebar />
      <main className="workspace">
        <Routes>
          <Route path="/chat/*" element={<ChatLayout />} />
          <Route path="/vault/*" element={<Suspense fallback={null}><VaultRoutes /></Suspense>} />
          <Route path="/settings/*" element={<Suspense fallback={null}><SettingsRoutes /></Suspense>} />
          <Route path="*" element={<Navigate to="/chat" replace />} />
        </Routes>
      </main>
    </div>
  );
}

export function App({ guard }: { guard: DaemonGuard }) {
  const [client] = useState(
    () => new QueryClient({ defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false, staleTime: 5_000 } } }),
  );
  const [api] = useState(() => new CofferApi(guard));
  const state = useSyncExternalStore(guard.subscribe, guard.state);
  if (state === "starting") return null;
  if (state === "no-credential" || state === "link-used" || state === "signed-out") return <DaemonScreen state={state} />;
  return (
    <QueryClientProvider client={client}>
      <ApiProvider api={api}>
        <ToastProvider>
          <BrowserRouter>
            <Shell />
          </BrowserRouter>
        </ToastProvider>
      </ApiProvider>
      {(state === "impostor" || state === "ended") && <DaemonScreen state={state} overlay />}
    </QueryClientProvider>
  );
}
