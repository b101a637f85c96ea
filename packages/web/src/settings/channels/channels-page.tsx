import type { ChannelOut } from "@coffer/protocol";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useSettingsApi } from "../../api/page-apis.js";
import { useAgentName } from "../../api/agent-name.js";
import { useAgents } from "../../api/queries.js";
import { Icon } from "../../ui/icons.js";
import { EmptyState, InlineError, Page, Section, SkeletonRows } from "../../ui/page-kit.js";
import { useToast } from "../../ui/toasts.js";
import { credentialKeys } from "../credentials/credentials-page.js";
import { ChannelCard } from "./channel-card.js";
import { ChannelForm } from "./channel-form.js";
import { PairDialog } from "./pair-dialog.js";
import "./channels.css";

export const channelKeys = { all: ["settings", "channels"] as const, kinds: ["settings", "channel-kinds"] as const };

/** The poller's state has no live event on the page: re-read the list while it is open. */
const REFRESH_MS = 3000;

/** " on Telegram or Discord": the platforms the daemon registered, by display name (none listed yet: nothing). */
function platformWords(kinds: readonly { display_name: string }[]): string {
  const names = kinds.map((k) => k.display_name);
  if (!names.length) return "";
  return ` on ${names.length === 1 ? names[0] : `${names.slice(0, -1).join(", ")} or ${names.at(-1)}`}`;
}

/** IM channels: chat bots (on any platform the daemon registered) that let the owner chat with their agents from a phone. */
export function ChannelsPage() {
  const settings = useSettingsApi();
  const client = useQueryClient();
  const toast = useToast();
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<string | null>(null);
  const kinds = useQuery({ queryKey: channelKeys.kinds, queryFn: settings.channelKinds, staleTime: Infinity });
  const [pairing, setPairing] = useState<ChannelOut | null>(null);
  const channels = useQuery({ queryKey: channelKeys.all, queryFn: settings.channels, refetchInterval: REFRESH_MS });
  const creds = useQuery({ queryKey: credentialKeys.all, queryFn: settings.credentials });
  const agents = useAgents();
  const invalidate = () => client.invalidateQueries({ queryKey: channelKeys.all });
  const fail = (err: Error) => toast({ text: err.message, tone: "error" });
  const toggle = useMutation({
    mutationFn: (c: ChannelOut) => settings.setChannelEnabled(c.id, !c.enabled),
    onError: fail,
    onSettled: invalidate,
  });
  const remove = useMutation({
    mutationFn: (c: ChannelOut) => settings.deleteChannel(c.id),
    onSuccess: (_, c) => toast({ text: `Deleted channel '${c.name}'` }),
    onError: fail,
    onSettled: invalidate,
  });
  const list = channels.data?.channels ?? [];
  const agentList = agents.data?.agents ?? [];
  const agentName = useAgentName();
  const formReady = creds.isSuccess && agents.isSuccess && kinds.isSuccess;
  const kindList = kinds.data?.kinds ?? [];
  const formProps = {
    kinds: kindList,
    agents: agentList,
    credentials: creds.data?.credentials ?? [],
    onStoreToken: async (ref: string, secret: string) => {
      await settings.setCredential(ref, secret);
      await client.invalidateQueries({ queryKey: credentialKeys.all });
    },
  };
  const done = (saved: ChannelOut | null) => {
    setAdding(false);
    setEditing(null);
    if (saved) void invalidate();
  };
  return (
    <Page
      title="Channels"
      actions={
        <button type="button" className="btn btn-primary" aria-expanded={adding} disabled={!formReady} onClick={() => setAdding(true)}>
          <Icon name="plus" /> Add channel
        </button>
      }
    >
      <p className="page-lead">
        Chat with your agents from your phone through your own bot{platformWords(kindList)}. Only the paired owner is answered; everyone else is ignored and nothing they send is stored.
      </p>
      <InlineError error={creds.error ?? agents.error ?? kinds.error} onRetry={() => void Promise.all([creds.refetch(), agents.refetch(), kinds.refetch()])} />
      {adding && formReady && (
        <Section title="New channel">
          <ChannelForm {...formProps} onDone={done} />
        </Section>
      )}
      <Section title={channels.data ? `Channels · ${list.length}` : "Channels"}>
        {channels.isPending && <SkeletonRows label="Loading channels" />}
        {channels.isError && <InlineError error={channels.error} onRetry={() => void channels.refetch()} />}
        {channels.isSuccess && list.length === 0 && !adding && (
          <EmptyState action={formReady && <button type="button" className="btn" onClick={() => setAdding(true)}>Add channel</button>}>
            No channels yet. Create a bot with @BotFather in Telegram, then add it here.
          </EmptyState>
        )}
        <ul className="channel-list" aria-label="Channels">
          {list.map((c) =>
            editing === c.id && formReady ? (
              <li key={c.id}>
                <ChannelForm {...formProps} channel={c} onDone={done} />
              </li>
            ) : (
              <ChannelCard
                key={c.id}
                channel={c}
                kinds={kindList}
                agentName={agentName(c.default_agent)}
                onToggle={() => toggle.mutate(c)}
                onPair={() => setPairing(c)}
                onEdit={() => setEditing(c.id)}
                onDelete={() => remove.mutate(c)}
              />
            ),
          )}
        </ul>
      </Section>
      {pairing && (
        <PairDialog
          channel={pairing}
          onClose={(paired) => {
            setPairing(null);
            if (paired) void invalidate();
          }}
        />
      )}
    </Page>
  );
}
