import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render } from "@testing-library/react";
import type { ReactElement } from "react";
import { ApiProvider } from "../src/api/api-context.js";
import type { CofferApi } from "../src/api/client.js";

/**
 * Renders `ui` as the page holds it — a fresh query cache, and an API whose one method is the
 * test's `call` (a recorder of typed calls standing in for the daemon; the real routes run in
 * the daemon's integration tests and the e2e suite).
 */
export function renderWithApi(ui: ReactElement, call: (...args: never[]) => unknown) {
  return render(
    <QueryClientProvider client={new QueryClient()}>
      <ApiProvider api={{ call } as unknown as CofferApi}>{ui}</ApiProvider>
    </QueryClientProvider>,
  );
}
