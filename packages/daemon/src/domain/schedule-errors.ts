import { DomainError } from "./errors.js";

export class ScheduleNotFound extends DomainError {
  readonly code = "SCHEDULE_NOT_FOUND";
  constructor(id: string) {
    super(`schedule not found: ${id}`, { id });
  }
}

/** A schedule that could not run as given; `field` names what to fix (when, target.fresh.cwd…). */
export class ScheduleInvalid extends DomainError {
  readonly code = "SCHEDULE_INVALID";
  constructor(field: string, why: string) {
    super(`${field}: ${why}`, { field });
  }
}
