import { useQuery } from "@tanstack/react-query";
import { useVaultApi } from "../../api/page-apis.js";
import { Icon } from "../../ui/icons.js";
import { InlineError, Section, SkeletonRows } from "../../ui/page-kit.js";

/** One skill's SKILL.md, as the agents receive it from coffer__load_skill. */
export function SkillViewer({ folder, onClose }: { folder: string; onClose: () => void }) {
  const vault = useVaultApi();
  const skill = useQuery({ queryKey: ["vault", "skills", folder], queryFn: () => vault.skill(folder) });
  return (
    <Section
      title={`${skill.data?.name ?? folder} · SKILL.md`}
      actions={
        <button type="button" className="icon-btn" aria-label="Close SKILL.md" title="Close" onClick={onClose}>
          <Icon name="x" />
        </button>
      }
    >
      {skill.isPending && <SkeletonRows rows={4} label="Loading SKILL.md" />}
      <InlineError error={skill.error} onRetry={() => void skill.refetch()} />
      {skill.data && (
        <pre className="viewer" aria-label={`SKILL.md of ${skill.data.name ?? folder}`} tabIndex={0}>
          {skill.data.content}
        </pre>
      )}
    </Section>
  );
}
