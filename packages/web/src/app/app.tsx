import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { lazy, Suspense, useState } from "react";
import { BrowserRouter, Navigate, Route, Routes } from "react-router";
import { ApiProvider } from "../api/api-context.js";
import { CofferApi } from "../api/client.js";
import { ChatLayout } from "../chat/chat-layout.js";
import { useConversationListEvents } from "../chat/history/use-list-events.js";
import { ToastProvider } from "../ui/toasts.js";
import { AppSidebar } from "./app-sidebar.js";

// Vault and Settings load on first visit, with their own stylesheet (visual.md §8.7).
const VaultRoutes = lazy(() => import("../vault/vault-routes.js"));
const SettingsRoutes = lazy(() => import("../settings/settings-routes.js"));

function Shell() {
  useConversationListEvents();
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

export function App({ token }: { token: string | null }) {
  const [client] = useState(
    () => new QueryClient({ defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false, staleTime: 5_000 } } }),
  );
  const [api] = useState(() => new CofferApi(token));
  if (!token) return <NoToken />;
  return (
    <QueryClientProvider client={client}>
      <ApiProvider api={api}>
        <ToastProvider>
          <BrowserRouter>
            <Shell />
          </BrowserRouter>
        </ToastProvider>
      </ApiProvider>
    </QueryClientProvider>
  );
}

function NoToken() {
  return (
    <div className="no-token">
      <h1>Open Coffer from the link the daemon printed</h1>
      <p>
        The page needs the daemon's token. Run <code>coffer start</code> and open the <code>/?token=…</code> address it prints.
      </p>
    </div>
  );
}
