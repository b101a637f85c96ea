import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useVaultApi } from "../../api/page-apis.js";
import { Markdown } from "../../chat/thread/markdown.js";
import { Icon } from "../../ui/icons.js";
import { InlineError, Section, SkeletonRows } from "../../ui/page-kit.js";

/** The frontmatter block and the markdown body of a SKILL.md (no frontmatter: all body). */
function splitSkill(content: string): { header: string | null; body: string } {
  const m = /^\uFEFF?(---[ \t]*\r?\n[\s\S]*?\r?\n---[ \t]*)(?:\r?\n|$)/.exec(content);
  return m ? { header: m[1]!, body: content.slice(m[0].length) } : { header: null, body: content };
}

/** One skill's SKILL.md, as the agents receive it from coffer__load_skill: the frontmatter as written, the body rendered (or its source). */
export function SkillViewer({ folder, onClose }: { folder: string; onClose: () => void }) {
  const vault = useVaultApi();
  const skill = useQuery({ queryKey: ["vault", "skills", folder], queryFn: () => vault.skill(folder) });
  const [source, setSource] = useState(false);
  const label = `SKILL.md of ${skill.data?.name ?? folder}`;
  const parts = skill.data ? splitSkill(skill.data.content) : null;
  return (
    <Section
      title={`${skill.data?.name ?? folder} · SKILL.md`}
      actions={
        <div className="row-actions">
          <button type="button" className="btn btn-sm" aria-pressed={source} onClick={() => setSource((s) => !s)}>
            {source ? "Rendered" : "Source"}
          </button>
          <button type="button" className="icon-btn" aria-label="Close SKILL.md" title="Close" onClick={onClose}>
            <Icon name="x" />
          </button>
        </div>
      }
    >
      {skill.isPending && <SkeletonRows rows={4} label="Loading SKILL.md" />}
      <InlineError error={skill.error} onRetry={() => void skill.refetch()} />
      {skill.data && parts && (source ? (
        <pre className="viewer" aria-label={label} tabIndex={0}>
          {skill.data.content}
        </pre>
      ) : (
        <div className="viewer viewer-markdown" aria-label={label} tabIndex={0}>
          {parts.header && <pre className="skill-header">{parts.header}</pre>}
          <Markdown text={parts.body} streaming={false} />
        </div>
      ))}
    </Section>
  );
}
