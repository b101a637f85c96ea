import type { TurnAlerts } from "./turn-alert-ports.js";
import type { AgentRegistry } from "../agent-registry.js";
import type { AuditSink } from "../audit-log.js";
import { PlanLimitsBook } from "../limits/plan-limits-book.js";
import type { Clock, ConversationStore, IdGenerator, Logger, MessageStore, PendingStore, Transactor } from "../ports.js";
import type { SecretScrubber } from "../secrets/secret-scrubber.js";
import type { TurnTimings } from "./active-turn.js";
import type { BusHub } from "./bus-hub.js";
import { MemoryContextStore, type ContextUsageStore } from "./context-usage.js";
import { DEFAULT_EDIT_LEASE_MS, EditHolds } from "./edit-holds.js";
import type { ThreadNouns } from "../presenters.js";
import type { ConversationListEvents } from "./list-events.js";
import { PlanLimitParking } from "./plan-limit-parking.js";
import { QuestionDesk } from "./question-desk.js";
import { QueueEdits } from "./queue-edits.js";
import type { HoldStore } from "./queue-holds.js";
import { RunningTurns } from "./running-turns.js";
import { TurnLifecycle } from "./turn-lifecycle.js";
import { DEFAULT_QUEUE_MAX, TurnQueue } from "./turn-queue.js";
import { TurnReads } from "./turn-reads.js";
import { TurnSteering } from "./turn-steering.js";
import { TurnTimeline } from "./turn-timeline.js";
import { TurnSharedFiles } from "./shared-files.js";
import { TurnStarts } from "./turn-starts.js";
import type { HistoryCondenser } from "../agent-sessions/session-seed.js";
import type { AlarmClock } from "../timing/alarm-ports.js";
import { SendLater } from "./send-later.js";

export interface TurnRoomsDeps {
  /** The chat stores share one database handle: a transaction opened here spans all three. */
  readonly tx: Transactor;
  readonly conversations: ConversationStore;
  readonly messages: MessageStore;
  readonly pending: PendingStore;
  readonly audit: AuditSink;
  readonly registry: AgentRegistry;
  readonly hub: BusHub;
  readonly listEvents: ConversationListEvents;
  /** The channel platforms' words for a thread, for the conversations the list stream shows. */
  readonly threadNouns?: ThreadNouns;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly logger: Logger;
  readonly timings: TurnTimings;
  /** The most messages one conversation may queue (COFFER_QUEUE_MAX). */
  readonly queueMax?: number;
  readonly limits?: PlanLimitsBook;
  /** Where plan-limit holds outlive a restart (SQLite); in memory when absent. */
  readonly holdStore?: HoldStore;
  /** Tells the owner when a turn ends, fails or asks, and when a queue parks or resumes. */
  readonly alerts?: TurnAlerts;
  /** Each conversation's latest context usage (SQLite); in memory when absent. */
  readonly contextUsage?: ContextUsageStore;
  /** Scrubs known credential values from the agents' output before it is stored, streamed or relayed. */
  readonly scrubber?: SecretScrubber;
  /** Condenses older messages when a lost agent session is reseeded (the internal-default model); absent = trimmed text. */
  readonly condense?: HistoryCondenser;
  /** How long an edit hold on a queued message lasts unless renewed (COFFER_QUEUE_EDIT_LEASE_MS). */
  readonly editLeaseMs?: number;
  /** Where an attachment's stored bytes are, named to the agent in the message it receives. */
  readonly attachmentPath?: (conversationId: string, attachmentId: string) => string;
  /** An image as the model gets it (downscaled when too big); null = not decodable, sent as a plain file. */
  readonly imageForModel?: (conversationId: string, attachmentId: string, path: string, mediaType: string) => Promise<{ readonly path: string; readonly mediaType: string } | null>;
  /** Stores a file the agent shared on its reply's row, with its caption (AttachmentStore.appendToMessage); absent = files are not kept. */
  readonly linkSharedFile?: (messageId: string, attachmentId: string, caption: string | undefined) => void;
  /** The daemon's one AlarmClock (messages sent later ring on it); absent = plain timers on `clock`. */
  readonly alarms?: AlarmClock;
}

/**
 * The turns, room by room (docs/decisions.md, "The turn engine in rooms"). Each surface takes the
 * room it talks to: the queue to send, the lifecycle to interrupt or discard, the questions to
 * answer, the read side to show and watch.
 */
export interface TurnRooms {
  readonly queue: TurnQueue;
  readonly edits: QueueEdits;
  readonly lifecycle: TurnLifecycle;
  readonly questions: QuestionDesk;
  readonly reads: TurnReads;
  readonly parking: PlanLimitParking;
  /** Files the agent shares into its running reply (coffer__share_file's attach port). */
  readonly files: TurnSharedFiles;
  /** The turn-started hook: a channel hears from the engine that a turn began in a bound conversation. */
  readonly starts: TurnStarts;
  /** Messages sent later: start (after recover) sends those that came due while down; stop at shutdown. */
  readonly later: SendLater;
}

/**
 * Builds the rooms and ties them. Per conversation at most one turn is in flight (RunningTurns),
 * with a durable FIFO queue behind it and every event on the conversation's live bus. The rooms
 * call each other in a circle (a turn's end advances the queue, which begins a turn), so the ties
 * are closures over rooms built later in this function.
 */
export function buildTurnRooms(d: TurnRoomsDeps): TurnRooms {
  const queueMax = d.queueMax ?? DEFAULT_QUEUE_MAX;
  const limits = d.limits ?? new PlanLimitsBook();
  const contextUsage = d.contextUsage ?? new MemoryContextStore();
  const running = new RunningTurns();
  const timeline = new TurnTimeline(d.messages, d.ids);
  const publishQueue = (id: string): void => reads.publishQueue(id);
  const advance = (id: string): Promise<void> => queue.advance(id);

  // A lapsed edit (its page closed, its network gone) lets the queue run on by itself.
  const editHolds = new EditHolds(() => d.clock.now(), d.editLeaseMs ?? DEFAULT_EDIT_LEASE_MS, d.ids, (id) => {
    publishQueue(id);
    void advance(id).catch(() => undefined);
  });
  const parking: PlanLimitParking = new PlanLimitParking({
    conversations: d.conversations,
    audit: d.audit,
    clock: d.clock,
    limits,
    holdStore: d.holdStore,
    alerts: d.alerts,
    publishQueue,
    resume: (id): Promise<void> => queue.resume(id),
  });
  const reads = new TurnReads({ conversations: d.conversations, pending: d.pending, hub: d.hub, clock: d.clock, limits, contextUsage, edits: editHolds, holds: parking });
  const later = new SendLater({ pending: d.pending, conversations: d.conversations, alarms: d.alarms ?? timerAlarms(d.clock), limits, audit: d.audit, publishQueue, advance });
  const questions = new QuestionDesk({ conversations: d.conversations, audit: d.audit, clock: d.clock });
  const steering = new TurnSteering({
    tx: d.tx,
    conversations: d.conversations,
    pending: d.pending,
    timeline,
    hub: d.hub,
    clock: d.clock,
    ids: d.ids,
    logger: d.logger,
    queueMax,
    publishQueue,
    queue: { placeFirst: (id, row) => queue.placeFirst(id, row), advance },
  });
  const starts = new TurnStarts();
  const lifecycle = new TurnLifecycle({
    ...d,
    starts,
    timeline,
    running,
    questions,
    runner: { ...d, limits, contextUsage },
    publishQueue,
    park: (id) => parking.park(id),
    advance,
  });
  const queue: TurnQueue = new TurnQueue({
    ...d,
    queueMax,
    running,
    steering,
    edits: editHolds,
    parking,
    reads,
    later,
    begin: (conv, text, clientId, pendingId, attachments, voice, schedule) => lifecycle.begin(conv, text, clientId, pendingId, attachments, voice, schedule),
  });
  const edits = new QueueEdits({ conversations: d.conversations, pending: d.pending, edits: editHolds, publishQueue, advance });
  const files = new TurnSharedFiles({ running, hub: d.hub, link: d.linkSharedFile });
  return { queue, edits, lifecycle, questions, reads, parking, files, starts, later };
}

/** An AlarmClock on plain timers (a test engine without the daemon's): long waits re-arm in steps under Node's timer cap. */
function timerAlarms(clock: Clock): AlarmClock {
  return {
    now: () => clock.now(),
    at(when, fire) {
      let timer: NodeJS.Timeout;
      const arm = (): void => {
        timer = setTimeout(() => (clock.now() >= when ? fire() : arm()), Math.min(Math.max(0, when - clock.now()), 2 ** 31 - 1));
        timer.unref();
      };
      arm();
      return () => clearTimeout(timer);
    },
  };
}

/** Daemon shutdown: hold and lease timers stop (stored holds stay for the next start), then every running turn ends. */
export async function shutdownTurns(rooms: TurnRooms): Promise<void> {
  rooms.parking.stopTimers();
  rooms.later.stop();
  rooms.edits.stopTimers();
  await rooms.lifecycle.shutdown();
}
