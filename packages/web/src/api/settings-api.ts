import {
  CHAT_AREA_ROUTES,
  CHANNEL_ROUTES,
  BRIEF_ROUTES,
  SCHEDULE_ROUTES,
  SETTINGS_ROUTES,
  TRANSCRIPTION_SETTINGS_ROUTES,
  type ChannelCreate,
  type ChannelPatch,
  type ConnectionCreate,
  type ConnectionPatch,
  type BriefSettingsPatch,
  type ScheduleCreate,
  type SchedulePatch,
  type ListModelsRequest,
  type RetentionSettingsPatch,
  type TestConnectionRequest,
  type TranscriptionSettingsPut,
} from "@coffer/protocol";
import type { CofferApi } from "./client.js";

/** Settings' REST routes (LLM connections, credentials, retention, backups, IM channels), on CofferApi's transport. */
export class SettingsApi {
  constructor(private readonly api: CofferApi) {}

  wires = () => this.api.call(SETTINGS_ROUTES.listWires);
  connections = () => this.api.call(SETTINGS_ROUTES.listConnections);
  createConnection = (body: ConnectionCreate) => this.api.call(SETTINGS_ROUTES.createConnection, { body });
  updateConnection = (id: string, body: ConnectionPatch) => this.api.call(SETTINGS_ROUTES.updateConnection, { params: { id }, body });
  deleteConnection = (id: string) => this.api.call(SETTINGS_ROUTES.deleteConnection, { params: { id } });
  makeInternalDefault = (id: string) => this.api.call(SETTINGS_ROUTES.makeInternalDefault, { params: { id } });
  listModels = (body: ListModelsRequest) => this.api.call(SETTINGS_ROUTES.listModels, { body });
  testConnection = (body: TestConnectionRequest) => this.api.call(SETTINGS_ROUTES.testConnection, { body });

  /** Voice: the transcription connection (its key is write-only: answers say has_key). */
  transcription = () => this.api.call(TRANSCRIPTION_SETTINGS_ROUTES.getTranscriptionSettings);
  setTranscription = (body: TranscriptionSettingsPut) => this.api.call(TRANSCRIPTION_SETTINGS_ROUTES.putTranscriptionSettings, { body });
  removeTranscription = () => this.api.call(TRANSCRIPTION_SETTINGS_ROUTES.deleteTranscriptionSettings);
  /** Sends a generated tone through the saved connection. */
  testTranscription = () => this.api.call(TRANSCRIPTION_SETTINGS_ROUTES.testTranscriptionSettings);

  credentials = () => this.api.call(SETTINGS_ROUTES.listCredentials);
  /** Write-only: the secret goes out once and is never read back. */
  setCredential = (ref: string, secret: string) => this.api.call(SETTINGS_ROUTES.setCredential, { params: { ref }, body: { secret } });
  deleteCredential = (ref: string) => this.api.call(SETTINGS_ROUTES.deleteCredential, { params: { ref } });

  retention = () => this.api.call(SETTINGS_ROUTES.getRetention);
  setRetention = (body: RetentionSettingsPatch) => this.api.call(SETTINGS_ROUTES.setRetention, { body });

  backups = () => this.api.call(SETTINGS_ROUTES.getBackups);
  /** GET /system/stats (the Chat's room): Data shows what the attachments take. */
  systemStats = () => this.api.call(CHAT_AREA_ROUTES.systemStats);
  /** Into the snapshot folder; answers once the file is written. */
  backUpNow = () => this.api.call(SETTINGS_ROUTES.createBackup, { body: {} });

  channels = () => this.api.call(CHANNEL_ROUTES.listChannels);
  /** The platforms the daemon's adapters registered, with the credentials each form asks for. */
  channelKinds = () => this.api.call(CHANNEL_ROUTES.listChannelKinds);
  channel = (id: string) => this.api.call(CHANNEL_ROUTES.getChannel, { params: { id } });
  createChannel = (body: ChannelCreate) => this.api.call(CHANNEL_ROUTES.createChannel, { body });
  updateChannel = (id: string, body: ChannelPatch) => this.api.call(CHANNEL_ROUTES.updateChannel, { params: { id }, body });
  deleteChannel = (id: string) => this.api.call(CHANNEL_ROUTES.deleteChannel, { params: { id } });
  schedules = () => this.api.call(SCHEDULE_ROUTES.listSchedules);
  createSchedule = (body: ScheduleCreate) => this.api.call(SCHEDULE_ROUTES.createSchedule, { body });
  updateSchedule = (id: string, body: SchedulePatch) => this.api.call(SCHEDULE_ROUTES.updateSchedule, { params: { id }, body });
  deleteSchedule = (id: string) => this.api.call(SCHEDULE_ROUTES.deleteSchedule, { params: { id } });
  runSchedule = (id: string) => this.api.call(SCHEDULE_ROUTES.runSchedule, { params: { id } });
  brief = () => this.api.call(BRIEF_ROUTES.getBrief);
  setBrief = (body: BriefSettingsPatch) => this.api.call(BRIEF_ROUTES.setBrief, { body });
  sendBrief = () => this.api.call(BRIEF_ROUTES.sendBrief);
  setChannelEnabled = (id: string, enabled: boolean) => this.api.call(enabled ? CHANNEL_ROUTES.enableChannel : CHANNEL_ROUTES.disableChannel, { params: { id } });
  createPairingCode = (id: string) => this.api.call(CHANNEL_ROUTES.createPairingCode, { params: { id } });
}
