import type { ConversationOut } from "@coffer/protocol";
import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useMemo } from "react";
import { useNavigate, useParams } from "react-router";
import { useApi } from "../../api/api-context.js";
import { ApiError } from "../../api/client.js";
import { keys, patchLists } from "../../api/queries.js";
import { useToast } from "../../ui/toasts.js";
import { deleteDraft } from "../composer/draft-store.js";

/** Rename, archive/restore and delete, shared by the history row menu and the thread header. */
export function useConversationActions() {
  const api = useApi();
  const client = useQueryClient();
  const toast = useToast();
  const navigate = useNavigate();
  const { id: openId } = useParams();

  const fail = useCallback(
    (what: string) => (err: unknown) =>
      toast({ tone: "error", text: `Could not ${what}: ${err instanceof ApiError ? err.message : String(err)}` }),
    [toast],
  );

  const restore = useCallback(
    (conv: ConversationOut) =>
      api.restore(conv.id).then((c) => patchLists(client, { upsert: c }), fail("restore the conversation")),
    [api, client, fail],
  );

  return useMemo(
    () => ({
      rename: (conv: ConversationOut, title: string) =>
        api.rename(conv.id, title).then((c) => patchLists(client, { upsert: c }), fail("rename the conversation")),
      archive: (conv: ConversationOut) =>
        api.archive(conv.id).then((c) => {
          patchLists(client, { upsert: c });
          toast({ text: `Archived '${c.title}'`, action: { label: "Undo", run: () => void restore(c) } });
        }, fail("archive the conversation")),
      restore,
      remove: (conv: ConversationOut) =>
        api.remove(conv.id).then(() => {
          patchLists(client, { removeId: conv.id });
          deleteDraft(conv.id);
          client.removeQueries({ queryKey: keys.conversation(conv.id) });
          client.removeQueries({ queryKey: keys.messages(conv.id) });
          if (openId === conv.id) void navigate("/chat", { replace: true });
        }, fail("delete the conversation")),
    }),
    [api, client, toast, restore, fail, navigate, openId],
  );
}
