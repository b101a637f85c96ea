import type { OpenQuestionOut, QuestionAnswer, QuestionListOut } from "@coffer/protocol";
import { QuestionNotFound } from "../../domain/question-errors.js";
import type { AuditSink } from "../audit-log.js";
import type { Clock, ConversationStore } from "../ports.js";
import { requireConversation } from "./require-conversation.js";
import type { TurnQuestions } from "./turn-questions.js";

export interface QuestionDeskDeps {
  readonly conversations: Pick<ConversationStore, "getConversation">;
  readonly audit: AuditSink;
  readonly clock: Clock;
}

/**
 * The agents' questions as the owner meets them: each conversation's latest turn's questions
 * (kept after the turn, so a late answer learns who won), listed and answered from any surface.
 */
export class QuestionDesk {
  private readonly latest = new Map<string, TurnQuestions>();

  constructor(private readonly deps: QuestionDeskDeps) {}

  /** A turn went on its bus: its questions are now the conversation's latest. */
  track(conversationId: string, questions: TurnQuestions): void {
    this.latest.set(conversationId, questions);
  }

  /** A discarded turn (delete) leaves nothing behind. */
  forget(conversationId: string): void {
    this.latest.delete(conversationId);
  }

  /** The latest turn's questions (what a surface that missed the events shows). */
  list(conversationId: string): QuestionListOut {
    requireConversation(this.deps.conversations, conversationId);
    return { questions: this.latest.get(conversationId)?.list() ?? [] };
  }

  /** Every question still waiting for the owner, across conversations, oldest first. */
  openAll(): OpenQuestionOut[] {
    const out: OpenQuestionOut[] = [];
    for (const [conversationId, questions] of this.latest) {
      const title = this.deps.conversations.getConversation(conversationId)?.title ?? null;
      for (const q of questions.openNow()) {
        out.push({ conversation_id: conversationId, title, question_id: q.questionId, questions: [...q.questions], asked_at: q.askedAt });
      }
    }
    return out.sort((a, b) => a.asked_at - b.asked_at);
  }

  /**
   * The owner answers the running turn's question; the first answer wins (a second:
   * QUESTION_ALREADY_ANSWERED). `by` is the surface the caller verified (surfaceOf); what a
   * client said about itself is only a `label` in the audit row.
   */
  answer(conversationId: string, questionId: string, answers: readonly QuestionAnswer[], by: string, label?: string): void {
    requireConversation(this.deps.conversations, conversationId);
    const questions = this.latest.get(conversationId);
    if (!questions) throw new QuestionNotFound(conversationId, questionId);
    questions.answer(questionId, answers, by);
    const details = { conversation_id: conversationId, question_id: questionId, by, ...(label ? { label } : {}) };
    this.deps.audit("user", "question_answered", details, this.deps.clock.now());
  }
}
