import { ROUTES, type ConversationIdCandidate } from "@coffer/protocol";
import { CliError, type DaemonClient } from "./client.js";

/** A whole conversation id: 32 hex characters (a UUID without dashes). */
const FULL_ID = /^[0-9a-f]{32}$/i;

/**
 * Wherever a conversation id is taken, a unique prefix will do (like git's short hashes): the
 * daemon resolves it (archived ones too). A whole id is used as it is, without a request. An
 * ambiguous prefix fails with CONVERSATION_ID_AMBIGUOUS (exit 4) and lists the candidates.
 */
export async function resolveConversationId(client: DaemonClient, id: string): Promise<string> {
  if (FULL_ID.test(id)) return id;
  try {
    return (await client.call(ROUTES.resolveConversationId, { params: { prefix: id } })).id;
  } catch (err) {
    if (!(err instanceof CliError) || err.code !== "CONVERSATION_ID_AMBIGUOUS") throw err;
    const details = (err.details ?? {}) as { candidates?: ConversationIdCandidate[]; more?: boolean };
    const rows = (details.candidates ?? []).map(
      (c) => `  ${c.id}  ${c.updated_at.slice(0, 16).replace("T", " ")}  ${c.title.replace(/\s+/g, " ").slice(0, 60)}${c.archived ? "  [archived]" : ""}`,
    );
    throw new CliError(
      "CONVERSATION_ID_AMBIGUOUS",
      `"${id}" is the start of several conversation ids; give more characters:\n${rows.join("\n")}${details.more ? "\n  … and more" : ""}\n`,
    );
  }
}
