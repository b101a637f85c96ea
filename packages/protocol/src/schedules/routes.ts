import { ScheduleCreate, ScheduleListOut, ScheduleOut, SchedulePatch, ScheduleRunOut } from "./schedules.js";
import { BriefOut, BriefSettingsOut, BriefSettingsPatch } from "./brief.js";
import type { RouteSpec } from "../wire/route-spec.js";

const schedule = "/schedules/{id}";

/** Recurring prompts (spread into ROUTES). */
export const SCHEDULE_ROUTES = {
  listSchedules: { method: "get", path: "/schedules", summary: "Recurring prompts, each with its next run and last run", responses: { 200: ScheduleListOut } },
  createSchedule: {
    method: "post",
    path: "/schedules",
    summary: "Add a recurring prompt; a bad cron, unknown conversation, agent or folder is refused (SCHEDULE_INVALID names the field)",
    body: ScheduleCreate,
    responses: { 201: ScheduleOut },
  },
  getSchedule: { method: "get", path: schedule, summary: "One recurring prompt", responses: { 200: ScheduleOut } },
  updateSchedule: { method: "patch", path: schedule, summary: "Change, pause or resume a recurring prompt", body: SchedulePatch, responses: { 200: ScheduleOut } },
  deleteSchedule: { method: "delete", path: schedule, summary: "Remove a recurring prompt (what it already sent stays in history)", responses: { 204: null } },
  runSchedule: {
    method: "post",
    path: `${schedule}/run-now`,
    summary: "Send the prompt now (through the conversation's queue, or into a fresh conversation); the timetable is unchanged",
    responses: { 200: ScheduleRunOut },
  },
} as const satisfies Record<string, RouteSpec>;

/** The morning brief's settings and "Send it now" (spread into ROUTES). */
export const BRIEF_ROUTES = {
  getBrief: { method: "get", path: "/settings/brief", summary: "The morning brief: on/off, its time in the owner's zone, where it goes", responses: { 200: BriefSettingsOut } },
  setBrief: {
    method: "put",
    path: "/settings/brief",
    summary: "Turn the morning brief on or off, set its time (HH:MM) and where it goes; omitted fields stay as they are",
    body: BriefSettingsPatch,
    responses: { 200: BriefSettingsOut },
  },
  sendBrief: { method: "post", path: "/settings/brief/send", summary: "Build the brief now and send it where it goes (a preview; the daily time is unchanged)", responses: { 200: BriefOut } },
} as const satisfies Record<string, RouteSpec>;
