import { createContext, useContext, type ReactNode } from "react";
import type { CofferApi } from "./client.js";

const ApiContext = createContext<CofferApi | null>(null);

export function ApiProvider({ api, children }: { api: CofferApi; children: ReactNode }) {
  return <ApiContext.Provider value={api}>{children}</ApiContext.Provider>;
}

export function useApi(): CofferApi {
  const api = useContext(ApiContext);
  if (!api) throw new Error("useApi outside ApiProvider");
  return api;
}

/** The API when one is provided: the composer renders (and is tested) without it until a file is attached. */
export function useMaybeApi(): CofferApi | null {
  return useContext(ApiContext);
}
