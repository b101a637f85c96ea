import type { ChannelKindOut, ChannelOut } from "@coffer/protocol";
import { ConfirmAction } from "../../ui/confirm-action.js";
import { Icon } from "../../ui/icons.js";
import { StatusDot } from "../../ui/page-kit.js";
import { CHANNEL_STATUS, deadCodeText, kindName, ownerText, visibleError } from "./channel-words.js";

interface Props {
  readonly channel: ChannelOut;
  /** The registered platforms, for the kind's name. */
  readonly kinds: readonly ChannelKindOut[];
  readonly agentName: string;
  readonly onToggle: () => void;
  readonly onPair: () => void;
  readonly onEdit: () => void;
  /** Runs once the owner has confirmed. */
  readonly onDelete: () => void;
}

/** One channel: who it is, whether it is receiving, who it answers, and what went through it. */
export function ChannelCard({ channel: c, kinds, agentName, onToggle, onPair, onEdit, onDelete }: Props) {
  const status = CHANNEL_STATUS[c.status.state];
  const error = visibleError(c);
  const deadCode = deadCodeText(c);
  const n = c.counts;
  return (
    <li className="channel" aria-label={`${c.name}, ${status.word}`}>
      <div className="channel-head">
        <span className="channel-name">{c.name}</span>
        <span className="chip">{kindName(c.kind, kinds)}</span>
        {c.bot && <span className="channel-bot mono">@{c.bot.username}</span>}
        <span className={`pill pill-${status.tone}`}>
          <StatusDot tone={status.tone}>{status.word}</StatusDot>
        </span>
      </div>
      {error && (
        <p className={`channel-error channel-error-${status.tone}`} role="status">
          <Icon name="alert" size={14} /> {error}
        </p>
      )}
      {deadCode && (
        <p className="channel-error channel-error-warning" role="status">
          <Icon name="alert" size={14} /> {deadCode}
        </p>
      )}
      <p className="channel-owner">
        {c.owner ? <Icon name="check" size={14} /> : null}
        {ownerText(c)}
      </p>
      <ul className="channel-counts" aria-label={`Counts of ${c.name}`}>
        <li>{n.messages_in} in</li>
        <li>{n.messages_out} out</li>
        <li className={n.outbox > 0 ? "count-waiting" : undefined}>{n.outbox} waiting</li>
        <li>{n.strangers_ignored} strangers ignored</li>
        <li>
          {n.conversations} {n.conversations === 1 ? "conversation" : "conversations"}
        </li>
      </ul>
      <p className="channel-defaults">
        New chats run {agentName}
        {c.default_model && (
          <>
            {" "}
            on <span className="mono">{c.default_model}</span>
          </>
        )}
        {c.default_cwd && (
          <>
            {" "}
            in <span className="mono">{c.default_cwd}</span>
          </>
        )}
        {" · token "}
        <span className="mono">{c.bot_token_ref}</span>
      </p>
      <div className="channel-actions">
        <button type="button" className="btn btn-sm" aria-label={`${c.enabled ? "Disable" : "Enable"} ${c.name}`} onClick={onToggle}>
          <Icon name="power" size={14} /> {c.enabled ? "Disable" : "Enable"}
        </button>
        <button type="button" className="btn btn-sm" aria-label={`Pair phone with ${c.name}`} onClick={onPair}>
          <Icon name="phone" size={14} /> Pair phone
        </button>
        <button type="button" className="btn btn-sm" aria-label={`Edit ${c.name}`} onClick={onEdit}>
          <Icon name="pencil" size={14} /> Edit
        </button>
        <ConfirmAction
          label="Delete"
          ariaLabel={`Delete ${c.name}`}
          title={`Delete '${c.name}'?`}
          body="The bot stops answering. Its conversations stay in history, no longer bound to the chat."
          confirmLabel="Delete channel"
          onConfirm={onDelete}
        />
      </div>
    </li>
  );
}
