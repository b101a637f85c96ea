import { randomUUID } from "node:crypto";
import type { Clock, IdGenerator } from "../../application/ports.js";

export const systemClock: Clock = { now: () => Date.now() };

/** Dashless UUIDv4: short enough for URLs, unique enough for everything we name. */
export const randomIds: IdGenerator = () => randomUUID().replaceAll("-", "");
