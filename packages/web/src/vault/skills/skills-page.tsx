import type { SkillDetailOut, SkillImportOut, SkillOut } from "@coffer/protocol";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useVaultApi } from "../../api/page-apis.js";
import { Icon } from "../../ui/icons.js";
import { DataTable, EmptyState, Page, Section } from "../../ui/page-kit.js";
import { ConfirmAction } from "../../ui/confirm-action.js";
import { useToast } from "../../ui/toasts.js";
import { SkillEditor } from "./skill-editor.js";
import { SkillImportForm } from "./skill-import-form.js";
import { SkillViewer } from "./skill-viewer.js";

export const skillKeys = { all: ["vault", "skills"] as const, one: (name: string) => ["vault", "skills", name] as const };

/** Skill folders: the catalogue agents load from, with malformed folders shown as warnings. */
export function SkillsPage() {
  const vault = useVaultApi();
  const client = useQueryClient();
  const toast = useToast();
  const skills = useQuery({ queryKey: skillKeys.all, queryFn: vault.skills });
  const [open, setOpen] = useState<string | null>(null);
  const [writing, setWriting] = useState(false);
  const remove = useMutation({
    mutationFn: (folder: string) => vault.deleteSkill(folder),
    onSuccess: (_, folder) => {
      if (open === folder) setOpen(null);
      toast({ text: `Deleted skill '${folder}'` });
    },
    onError: (err) => toast({ text: `Could not delete: ${(err as Error).message}`, tone: "error" }),
    onSettled: () => client.invalidateQueries({ queryKey: skillKeys.all }),
  });
  const onImported = (out: SkillImportOut) => {
    void client.invalidateQueries({ queryKey: skillKeys.all });
    if (out.imported.length === 1) setOpen(out.imported[0]!.folder);
  };
  const onCreated = (out: SkillDetailOut | null) => {
    setWriting(false);
    if (!out) return;
    void client.invalidateQueries({ queryKey: skillKeys.all });
    toast({ text: `Created skill '${out.name ?? out.folder}'` });
    setOpen(out.folder);
  };
  const list = skills.data?.skills ?? [];
  const problems = list.filter((s) => s.problem).length;
  return (
    <Page
      title="Skills"
      actions={
        !writing && (
          <button type="button" className="btn btn-primary" onClick={() => setWriting(true)}>
            <Icon name="plus" /> New skill
          </button>
        )
      }
    >
      <p className="page-lead">
        Instructions your agents load when a task calls for them. Each skill is a folder with a <code>SKILL.md</code> file; agents see the list and
        load the one that fits.
      </p>
      {writing && (
        <Section title="New skill">
          <SkillEditor onDone={onCreated} />
        </Section>
      )}
      <Section title="Add skills">
        <SkillImportForm onImported={onImported} />
      </Section>
      <Section title={skills.data ? `Installed · ${list.length}` : "Installed"}>
        {problems > 0 && (
          <div className="banner banner-warning" role="status">
            <Icon name="alert" />
            <span className="banner-text">
              {problems === 1 ? "1 skill is" : `${problems} skills are`} left out of the agents' catalogue until fixed.
            </span>
          </div>
        )}
        <DataTable
          label="Skills"
          columns={["Name", "Description", ""]}
          query={skills}
          loadingLabel="Loading skills"
          isEmpty={list.length === 0}
          empty={
            <EmptyState>No skills yet. Write one, upload a folder that holds a SKILL.md, or import one by its path.</EmptyState>
          }
        >
          {list.map((s) => (
            <SkillRow
              key={s.folder}
              skill={s}
              selected={open === s.folder}
              onView={() => setOpen(open === s.folder ? null : s.folder)}
              onDelete={() => remove.mutate(s.folder)}
            />
          ))}
        </DataTable>
      </Section>
      {open && <SkillViewer key={open} folder={open} onClose={() => setOpen(null)} />}
    </Page>
  );
}

/** `onDelete` runs once the owner has confirmed. */
function SkillRow({ skill, selected, onView, onDelete }: { skill: SkillOut; selected: boolean; onView: () => void; onDelete: () => void }) {
  const label = skill.name ?? skill.folder;
  return (
    <tr aria-selected={selected}>
      <td>
        <span className="cell-main">{label}</span>
        {skill.name && skill.name !== skill.folder && <span className="cell-sub mono">{skill.folder}/</span>}
      </td>
      <td>
        {skill.description && <span className="cell-clip" title={skill.description}>{skill.description}</span>}
        {skill.problem && (
          <span className="problem">
            <Icon name="alert" size={14} />
            <span>
              <span className="sr-only">Problem: </span>
              {skill.problem}
            </span>
          </span>
        )}
      </td>
      <td>
        <div className="row-actions">
          <button type="button" className="btn btn-sm" aria-pressed={selected} aria-label={`View ${label}`} onClick={onView}>
            <Icon name="eye" size={14} /> View
          </button>
          <ConfirmAction
            label="Delete"
            ariaLabel={`Delete ${label}`}
            title={`Delete skill '${label}'?`}
            body={`The folder ${skill.folder} is removed from the vault. Agents can no longer load it.`}
            confirmLabel="Delete skill"
            onConfirm={onDelete}
          />
        </div>
      </td>
    </tr>
  );
}
