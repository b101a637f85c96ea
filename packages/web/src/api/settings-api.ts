import {
  ROUTES,
  type ChannelCreate,
  type ChannelPatch,
  type ConnectionCreate,
  type ConnectionPatch,
  type ListModelsRequest,
  type RetentionSettingsPatch,
  type TestConnectionRequest,
} from "@coffer/protocol";
import type { CofferApi } from "./client.js";

/** Settings' REST routes (LLM connections, credentials, retention, backups, IM channels), on CofferApi's transport. */
export class SettingsApi {
  constructor(private readonly api: CofferApi) {}

  wires = () => this.api.call(ROUTES.listWires);
  connections = () => this.api.call(ROUTES.listConnections);
  createConnection = (body: ConnectionCreate) => this.api.call(ROUTES.createConnection, { body });
  updateConnection = (id: string, body: ConnectionPatch) => this.api.call(ROUTES.updateConnection, { params: { id }, body });
  deleteConnection = (id: string) => this.api.call(ROUTES.deleteConnection, { params: { id } });
  makeInternalDefault = (id: string) => this.api.call(ROUTES.makeInternalDefault, { params: { id } });
  listModels = (body: ListModelsRequest) => this.api.call(ROUTES.listModels, { body });
  testConnection = (body: TestConnectionRequest) => this.api.call(ROUTES.testConnection, { body });

  credentials = () => this.api.call(ROUTES.listCredentials);
  /** Write-only: the secret goes out once and is never read back. */
  setCredential = (ref: string, secret: string) => this.api.call(ROUTES.setCredential, { params: { ref }, body: { secret } });
  deleteCredential = (ref: string) => this.api.call(ROUTES.deleteCredential, { params: { ref } });

  retention = () => this.api.call(ROUTES.getRetention);
  setRetention = (body: RetentionSettingsPatch) => this.api.call(ROUTES.setRetention, { body });

  backups = () => this.api.call(ROUTES.getBackups);
  /** Into the snapshot folder; answers once the file is written. */
  backUpNow = () => this.api.call(ROUTES.createBackup, { body: {} });

  channels = () => this.api.call(ROUTES.listChannels);
  channel = (id: string) => this.api.call(ROUTES.getChannel, { params: { id } });
  createChannel = (body: ChannelCreate) => this.api.call(ROUTES.createChannel, { body });
  updateChannel = (id: string, body: ChannelPatch) => this.api.call(ROUTES.updateChannel, { params: { id }, body });
  deleteChannel = (id: string) => this.api.call(ROUTES.deleteChannel, { params: { id } });
  setChannelEnabled = (id: string, enabled: boolean) => this.api.call(enabled ? ROUTES.enableChannel : ROUTES.disableChannel, { params: { id } });
  createPairingCode = (id: string) => this.api.call(ROUTES.createPairingCode, { params: { id } });
}
