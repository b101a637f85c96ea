import { CredentialListOut, CredentialOut, CredentialPut } from "./credentials.js";
import {
  ConnectionCreate,
  ConnectionListOut,
  ConnectionOut,
  ConnectionPatch,
  WireListOut,
} from "./llm-connections.js";
import { ListModelsOut, ListModelsRequest, TestConnectionOut, TestConnectionRequest } from "./model-introspection.js";
import { AlertSettingsOut, AlertSettingsPatch } from "./alerts.js";
import { QuestionSettingsOut, QuestionSettingsPatch } from "./questions.js";
import { RETENTION_ROUTES } from "./retention-routes.js";
import { BackupOut, BackupRequest, BackupStatusOut } from "./backups.js";
import type { RouteSpec } from "../wire/route-spec.js";

const connection = "/connections/{id}";

/** Credentials, LLM connections, model introspection, retention, alerts and backups (spread into ROUTES). */
export const SETTINGS_ROUTES = {
  listCredentials: { method: "get", path: "/credentials", summary: "Credential refs with timestamps (values are never returned)", responses: { 200: CredentialListOut } },
  setCredential: {
    method: "put",
    path: "/credentials/{ref}",
    summary: "Set a credential's secret (write-only; stored encrypted)",
    body: CredentialPut,
    responses: { 200: CredentialOut },
  },
  deleteCredential: { method: "delete", path: "/credentials/{ref}", summary: "Remove a credential", responses: { 204: null } },
  listWires: { method: "get", path: "/connections/wires", summary: "The wires an LLM connection can use", responses: { 200: WireListOut } },
  listConnections: { method: "get", path: "/connections", summary: "LLM connections", responses: { 200: ConnectionListOut } },
  createConnection: { method: "post", path: "/connections", summary: "Add an LLM connection", body: ConnectionCreate, responses: { 201: ConnectionOut } },
  getConnection: { method: "get", path: connection, summary: "One LLM connection", responses: { 200: ConnectionOut } },
  updateConnection: { method: "patch", path: connection, summary: "Change an LLM connection", body: ConnectionPatch, responses: { 200: ConnectionOut } },
  deleteConnection: { method: "delete", path: connection, summary: "Remove an LLM connection", responses: { 204: null } },
  makeInternalDefault: {
    method: "post",
    path: `${connection}/internal-default`,
    summary: "Make this the internal default (the one coffer__ask runs on)",
    responses: { 200: ConnectionOut },
  },
  listModels: {
    method: "post",
    path: "/models/list-models",
    summary: "The model ids a provider exposes; [] plus a message when none can be listed (nothing persisted)",
    body: ListModelsRequest,
    responses: { 200: ListModelsOut },
  },
  testConnection: {
    method: "post",
    path: "/models/test-connection",
    summary: "A minimal request to the provider: ok, or a humanised failure (nothing persisted)",
    body: TestConnectionRequest,
    responses: { 200: TestConnectionOut },
  },
  ...RETENTION_ROUTES,
  getAlerts: { method: "get", path: "/settings/alerts", summary: "Which events alert the owner, per surface (browser, Telegram)", responses: { 200: AlertSettingsOut } },
  setAlerts: {
    method: "put",
    path: "/settings/alerts",
    summary: "Change which events alert; omitted fields stay as they are",
    body: AlertSettingsPatch,
    responses: { 200: AlertSettingsOut },
  },
  getQuestionSettings: {
    method: "get",
    path: "/settings/questions",
    summary: "When an open question reaches the phone and when the owner is reminded",
    responses: { 200: QuestionSettingsOut },
  },
  setQuestionSettings: {
    method: "put",
    path: "/settings/questions",
    summary: "Change when open questions reach the phone and are reminded; omitted fields stay as they are",
    body: QuestionSettingsPatch,
    responses: { 200: QuestionSettingsOut },
  },
  getBackups: {
    method: "get",
    path: "/settings/backups",
    summary: "Scheduled snapshots: the folder, how many are kept, the last one and the next due",
    responses: { 200: BackupStatusOut },
  },
  createBackup: {
    method: "post",
    path: "/settings/backups",
    summary: "Back up now (online, consistent while turns run); answers when the file is written",
    body: BackupRequest,
    responses: { 201: BackupOut },
  },
} as const satisfies Record<string, RouteSpec>;
