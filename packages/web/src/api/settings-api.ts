import {
  ConnectionListOut,
  ConnectionOut,
  CredentialListOut,
  CredentialOut,
  ListModelsOut,
  RetentionSettingsOut,
  TestConnectionOut,
  WireListOut,
  type ConnectionCreate,
  type ConnectionPatch,
  type ListModelsRequest,
  type RetentionSettingsPatch,
  type TestConnectionRequest,
} from "@coffer/protocol";
import type { CofferApi } from "./client.js";

const enc = encodeURIComponent;

/** Settings' REST routes (LLM connections, credentials, retention), on CofferApi's transport. */
export class SettingsApi {
  constructor(private readonly api: CofferApi) {}

  wires = () => this.api.call("GET", "/connections/wires", WireListOut);
  connections = () => this.api.call("GET", "/connections", ConnectionListOut);
  createConnection = (body: ConnectionCreate) => this.api.call("POST", "/connections", ConnectionOut, body);
  updateConnection = (id: string, body: ConnectionPatch) => this.api.call("PATCH", `/connections/${enc(id)}`, ConnectionOut, body);
  deleteConnection = (id: string) => this.api.call("DELETE", `/connections/${enc(id)}`, null);
  makeInternalDefault = (id: string) => this.api.call("POST", `/connections/${enc(id)}/internal-default`, ConnectionOut, {});
  listModels = (body: ListModelsRequest) => this.api.call("POST", "/models/list-models", ListModelsOut, body);
  testConnection = (body: TestConnectionRequest) => this.api.call("POST", "/models/test-connection", TestConnectionOut, body);

  credentials = () => this.api.call("GET", "/credentials", CredentialListOut);
  /** Write-only: the secret goes out once and is never read back. */
  setCredential = (ref: string, secret: string) => this.api.call("PUT", `/credentials/${enc(ref)}`, CredentialOut, { secret });
  deleteCredential = (ref: string) => this.api.call("DELETE", `/credentials/${enc(ref)}`, null);

  retention = () => this.api.call("GET", "/settings/retention", RetentionSettingsOut);
  setRetention = (body: RetentionSettingsPatch) => this.api.call("PUT", "/settings/retention", RetentionSettingsOut, body);
}
