import { ChannelCreate, ChannelKindListOut, ChannelListOut, ChannelOut, ChannelPatch, PairingCodeOut } from "./channels.js";
import type { RouteSpec } from "../wire/route-spec.js";

const channel = "/channels/{id}";

/** IM channels (Telegram bots): vault state the owner manages (spread into ROUTES). */
export const CHANNEL_ROUTES = {
  listChannelKinds: {
    method: "get",
    path: "/channel-kinds",
    summary: "The platforms a channel can speak (one per registered adapter), each with the credentials its form asks for",
    responses: { 200: ChannelKindListOut },
  },
  listChannels: { method: "get", path: "/channels", summary: "IM channels with their live status", responses: { 200: ChannelListOut } },
  createChannel: {
    method: "post",
    path: "/channels",
    summary: "Add a channel; the bot token (a credential ref) is checked with the platform first, nothing is stored when it fails",
    body: ChannelCreate,
    responses: { 201: ChannelOut },
  },
  getChannel: { method: "get", path: channel, summary: "One channel and its live status", responses: { 200: ChannelOut } },
  updateChannel: { method: "patch", path: channel, summary: "Change a channel (a new token ref is checked first)", body: ChannelPatch, responses: { 200: ChannelOut } },
  deleteChannel: {
    method: "delete",
    path: channel,
    summary: "Remove a channel; its conversations stay in history, unbound",
    responses: { 204: null },
  },
  enableChannel: { method: "post", path: `${channel}/enable`, summary: "Start receiving and delivering", responses: { 200: ChannelOut } },
  disableChannel: {
    method: "post",
    path: `${channel}/disable`,
    summary: "Stop receiving; undelivered messages wait in the outbox",
    responses: { 200: ChannelOut },
  },
  createPairingCode: {
    method: "post",
    path: `${channel}/pairing-code`,
    summary: "A one-time pairing code (1 hour, 10 wrong guesses); whoever sends it becomes the channel's only owner",
    responses: { 201: PairingCodeOut },
  },
} as const satisfies Record<string, RouteSpec>;
