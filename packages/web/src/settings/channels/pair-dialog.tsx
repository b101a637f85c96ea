import type { ChannelOut } from "@coffer/protocol";
import { useMutation, useQuery } from "@tanstack/react-query";
import { useEffect, useId, useRef, useState } from "react";
import { useSettingsApi } from "../../api/page-apis.js";
import { Icon } from "../../ui/icons.js";
import { InlineError } from "../../ui/page-kit.js";
import { validFor } from "./channel-words.js";
import { CopyButton } from "../../ui/copy-button.js";
import { useNow } from "./use-now.js";
import { useQrCode } from "./use-qr-code.js";

interface Props {
  readonly channel: ChannelOut;
  readonly onClose: (paired: boolean) => void;
}

/**
 * A one-time pairing code for the phone: the code, the deep link and its QR code. The channel
 * is re-read every 2 s while the dialog is open; a new owner turns it into the success state.
 */
export function PairDialog({ channel, onClose }: Props) {
  const settings = useSettingsApi();
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  // Re-pairing replaces the owner: success is an owner paired after this dialog opened.
  const [before] = useState(() => channel.owner?.paired_at ?? null);
  const code = useMutation({ mutationFn: () => settings.createPairingCode(channel.id) });
  const live = useQuery({ queryKey: ["settings", "channels", channel.id], queryFn: () => settings.channel(channel.id), refetchInterval: 2000 });
  const owner = (live.data ?? channel).owner;
  const paired = owner !== null && owner.paired_at !== before ? owner : null;
  const pairing = code.data && !paired ? code.data : null;
  const now = useNow(1000, pairing !== null);
  const link = pairing?.deep_link ? (/^https?:\/\//.test(pairing.deep_link) ? pairing.deep_link : `https://${pairing.deep_link}`) : null;
  const qr = useQrCode(link);
  const { mutate } = code;
  // One code per opening: StrictMode's second effect run must not mint (and show) another.
  const asked = useRef(false);
  useEffect(() => {
    if (ref.current && !ref.current.open) ref.current.showModal?.();
    if (asked.current) return;
    asked.current = true;
    mutate();
  }, [mutate]);
  const bot = (live.data ?? channel).bot;
  const expiry = pairing ? validFor(pairing.expires_at, now) : null;
  return (
    <dialog ref={ref} className="dialog pair-dialog" aria-labelledby={titleId} onCancel={(e) => (e.preventDefault(), onClose(paired !== null))}>
      <h2 id={titleId} className="dialog-title">
        Pair a phone with {channel.name}
      </h2>
      {paired ? (
        <div className="pair-done" role="status">
          <Icon name="check" size={24} />
          <p className="pair-done-title">Paired with {paired.name}</p>
          <p className="dialog-body">Messages to {bot ? `@${bot.username}` : "the bot"} from this account now reach your agents. Anyone else is ignored.</p>
        </div>
      ) : pairing ? (
        <div className="pair-body">
          <p className="dialog-body">
            {/* A platform without a deep link (Discord) has only the code to send. */}
            {link ? "Open the link on your phone, or send the code to " : "Send the code in a direct message to "}
            {bot ? <strong>@{bot.username}</strong> : "the bot"}. Whoever sends it becomes this channel's only owner.
          </p>
          <div className="pair-code-row">
            <output className="pair-code" aria-label="Pairing code">
              {pairing.code}
            </output>
            <CopyButton text={pairing.code} label="Copy pairing code" />
          </div>
          <p className={expiry === "expired" ? "field-error" : "field-hint"}>
            {expiry === "expired" ? "This code has expired." : `Single use, ${expiry}.`}{" "}
            {expiry === "expired" && (
              <button type="button" className="link-btn" onClick={() => mutate()}>
                New code
              </button>
            )}
          </p>
          {link && (
            <div className="pair-link">
              {qr && <img className="pair-qr" src={qr} width={176} height={176} alt={`QR code of ${link}`} />}
              <a className="pair-url mono" href={link} target="_blank" rel="noreferrer">
                {link}
              </a>
            </div>
          )}
          {!(live.data ?? channel).enabled && (
            <p className="banner banner-warning">
              <Icon name="alert" /> <span className="banner-text">This channel is disabled: enable it so the bot can receive the code.</span>
            </p>
          )}
          <p className="field-hint pair-waiting" role="status">
            <Icon name="spinner" size={14} /> Waiting for the code…
          </p>
        </div>
      ) : code.isError ? (
        <InlineError error={code.error} onRetry={() => mutate()} />
      ) : (
        <p className="dialog-body" role="status">
          Creating a code…
        </p>
      )}
      <div className="dialog-actions">
        <button type="button" className={paired ? "btn btn-primary" : "btn"} onClick={() => onClose(paired !== null)} autoFocus>
          {paired ? "Done" : "Close"}
        </button>
      </div>
    </dialog>
  );
}
