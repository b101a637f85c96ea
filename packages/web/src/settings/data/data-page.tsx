import type { RetentionSettingsPatch } from "@coffer/protocol";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useSettingsApi } from "../../api/page-apis.js";
import { InlineError, Page, Section, SkeletonRows } from "../../ui/page-kit.js";
import { humanSize } from "../../ui/human-size.js";
import { plural } from "../../ui/plural.js";
import { BackupPanel } from "./backup-panel.js";
import { RetentionForm } from "./retention-form.js";
import { RetentionSummary } from "./retention-summary.js";

const key = ["settings", "retention"] as const;
const backupsKey = ["settings", "backups"] as const;
const statsKey = ["system", "stats"] as const;

/** Settings → Data: the two-stage conversation lifecycle (archive, then delete), and backups. */
export function DataPage() {
  const settings = useSettingsApi();
  const client = useQueryClient();
  const retention = useQuery({ queryKey: key, queryFn: settings.retention });
  // Re-read while the page is open: a scheduled snapshot lands by itself (every 2 s while one is being written).
  const backups = useQuery({ queryKey: backupsKey, queryFn: settings.backups, refetchInterval: (q) => (q.state.data?.running ? 2_000 : 60_000) });
  const stats = useQuery({ queryKey: statsKey, queryFn: settings.systemStats });
  const backUp = async () => {
    const made = await settings.backUpNow();
    await client.invalidateQueries({ queryKey: backupsKey });
    return made;
  };
  const save = async (patch: RetentionSettingsPatch) => {
    const out = await settings.setRetention(patch);
    client.setQueryData(key, out);
    await client.invalidateQueries({ queryKey: key });
  };
  return (
    <Page title="Data">
      <Section title="Conversation retention">
        <p className="page-lead" style={{ margin: 0 }}>
          Idle conversations move to the archive, and archived ones are deleted later (by default after 7 and then 30 days). The history shows
          each archived conversation's deletion date. A conversation with a running turn or queued messages is never touched.
        </p>
        {retention.isPending && <SkeletonRows rows={2} label="Loading retention settings" />}
        <InlineError error={retention.error} onRetry={() => void retention.refetch()} />
        {retention.data && (
          <>
            <RetentionSummary value={retention.data} onSave={save} />
            <RetentionForm value={retention.data} onSave={save} />
          </>
        )}
      </Section>
      <Section title="Attachments">
        <p className="page-lead" style={{ margin: 0 }}>
          Files sent with messages are kept in the data folder, once per content (the same file sent twice is stored once), and go with their
          conversation when it is deleted.
        </p>
        {stats.isPending && <SkeletonRows rows={1} label="Loading attachments" />}
        <InlineError error={stats.error} onRetry={() => void stats.refetch()} />
        {stats.data && (
          <p className="data-attachments" aria-label="Attachments stored">
            {plural(stats.data.attachments.count, "attachment")} in {plural(stats.data.attachments.files, "file")},{" "}
            {humanSize(stats.data.attachments.bytes)}
          </p>
        )}
      </Section>
      <Section title="Backups">
        <p className="page-lead" style={{ margin: 0 }}>
          A snapshot is one file holding your conversations, memory, knowledge, skills and the credentials key. Anyone who has it can decrypt
          your stored credentials: keep the folder where you would keep the key itself (a synced drive hands it to that provider). Restore
          one with <code>coffer restore</code>.
        </p>
        {backups.isPending && <SkeletonRows rows={3} label="Loading backups" />}
        <InlineError error={backups.error} onRetry={() => void backups.refetch()} />
        {backups.data && <BackupPanel status={backups.data} onBackUp={backUp} />}
      </Section>
    </Page>
  );
}
