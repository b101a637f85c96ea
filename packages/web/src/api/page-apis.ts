import { useMemo } from "react";
import { useApi } from "./api-context.js";
import { SettingsApi } from "./settings-api.js";
import { VaultApi } from "./vault-api.js";

export function useVaultApi(): VaultApi {
  const api = useApi();
  return useMemo(() => new VaultApi(api), [api]);
}

export function useSettingsApi(): SettingsApi {
  const api = useApi();
  return useMemo(() => new SettingsApi(api), [api]);
}
