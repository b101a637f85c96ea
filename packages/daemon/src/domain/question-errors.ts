import { answeredFromText, type QuestionAnswer } from "@coffer/protocol";
import { DomainError } from "./errors.js";

export class QuestionNotFound extends DomainError {
  readonly code = "QUESTION_NOT_FOUND";
  constructor(conversationId: string, questionId: string) {
    super("no such question in this conversation's running turn (it may have ended)", {
      conversation_id: conversationId,
      question_id: questionId,
    });
  }
}

/** First answer wins: the loser learns what was answered, and by whom. */
export class QuestionAlreadyAnswered extends DomainError {
  readonly code = "QUESTION_ALREADY_ANSWERED";
  constructor(questionId: string, answers: readonly QuestionAnswer[] | null, by: string | undefined) {
    // "Answered from Telegram: Blue": the same words the page and the phone show the loser.
    super(answers ? answeredFromText(answers, by) : "this question was cancelled (the turn stopped)", {
      question_id: questionId,
      answers,
      by: by ?? null,
    });
  }
}

export class AnswerInvalid extends DomainError {
  readonly code = "VALIDATION_FAILED";
  constructor(message: string, questionId: string) {
    super(message, { question_id: questionId });
  }
}
