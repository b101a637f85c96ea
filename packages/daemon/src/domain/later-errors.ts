import { DomainError } from "./errors.js";

/** A send-later time that is already past; `field` names it (send_at, pending[2].send_at). */
export class SendAtPast extends DomainError {
  readonly code = "SEND_AT_PAST";
  constructor(field: string, at: string) {
    super(`${field}: ${at} is not in the future; pick a later time, or send it now`, { field });
  }
}

/** A send-later time further ahead than 30 days (LATER_MAX_AHEAD_MS). */
export class SendAtTooFar extends DomainError {
  readonly code = "SEND_AT_TOO_FAR";
  constructor(field: string, at: string) {
    super(`${field}: ${at} is more than 30 days ahead; a message can be sent later by at most 30 days`, { field });
  }
}
