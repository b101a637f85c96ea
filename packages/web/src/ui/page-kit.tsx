import { useEffect, useId, useLayoutEffect, useRef, useState, type ReactNode, type Ref } from "react";
import { ApiError } from "../api/client.js";
import { Icon } from "./icons.js";
import { useShownAfter } from "./use-shown-after.js";

/** Vault and Settings pages: an 18 px title with actions on the right, then sections 24 apart. */
export function Page({ title, actions, children }: { title: string; actions?: ReactNode; children: ReactNode }) {
  return (
    <div className="page">
      <header className="page-head">
        <h1 className="page-title">{title}</h1>
        {actions && <div className="page-actions">{actions}</div>}
      </header>
      {children}
    </div>
  );
}

/** `headingRef`: a section the page moves the focus to (its heading takes a programmatic focus). */
export function Section({ title, actions, children, headingRef }: { title: string; actions?: ReactNode; children: ReactNode; headingRef?: Ref<HTMLHeadingElement> }) {
  const id = useId();
  return (
    <section className="page-section" aria-labelledby={id}>
      <div className="section-head">
        <h2 id={id} className="section-title" ref={headingRef} tabIndex={headingRef ? -1 : undefined}>
          {title}
        </h2>
        {actions}
      </div>
      {children}
    </section>
  );
}

/** The daemon's message for a failed call (the envelope's, never a raw code). */
export function errorText(err: unknown): string {
  if (err instanceof ApiError) return err.message;
  return err instanceof Error ? err.message : String(err);
}

/** A failure inline, next to what caused it. */
export function InlineError({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  if (!error) return null;
  return (
    <div className="banner banner-danger" role="alert">
      <Icon name="alert" />
      <span className="banner-text">{errorText(error)}</span>
      {onRetry && (
        <button type="button" className="btn btn-sm" onClick={onRetry}>
          Retry
        </button>
      )}
    </div>
  );
}

/** Loading keeps the shape: skeleton rows, invisible for the first 300 ms (a fast load never flashes). */
export function SkeletonRows({ rows = 3, label = "Loading" }: { rows?: number; label?: string }) {
  const shown = useShownAfter(300);
  return (
    <div className="skeleton-rows" role="status" aria-label={label} style={{ visibility: shown ? "visible" : "hidden" }}>
      {Array.from({ length: rows }, (_, i) => (
        <div key={i} className="skeleton-row" />
      ))}
    </div>
  );
}

export type Column = string | { readonly label: string; readonly numeric: true };

interface TableQuery {
  readonly isPending: boolean;
  readonly isError: boolean;
  readonly isSuccess: boolean;
  readonly error: unknown;
  refetch(): unknown;
}

/**
 * A page's table with its three states beside it: skeleton rows while loading, the error
 * with Retry, and the empty state. `""` as a column is the row actions (named for screen readers).
 */
export function DataTable({
  label,
  columns,
  query,
  loadingLabel,
  isEmpty,
  empty,
  footer,
  scroll = false,
  children,
}: {
  label: string;
  columns: readonly Column[];
  query: TableQuery;
  loadingLabel: string;
  isEmpty: boolean;
  empty: ReactNode;
  footer?: ReactNode;
  scroll?: boolean;
  children: ReactNode;
}) {
  const body = useRef<HTMLTableSectionElement>(null);
  useCellLabels(body, columns);
  return (
    <div className={scroll ? "table-wrap table-scroll" : "table-wrap"}>
      <table className="table table-cards" aria-label={label}>
        <thead>
          <tr>
            {columns.map((c, i) =>
              typeof c === "string" ? (
                <th key={i} scope="col">
                  {c || <span className="sr-only">Actions</span>}
                </th>
              ) : (
                <th key={i} scope="col" className="num">
                  {c.label}
                </th>
              ),
            )}
          </tr>
        </thead>
        <tbody ref={body}>{children}</tbody>
      </table>
      {query.isPending && <SkeletonRows label={loadingLabel} />}
      {query.isError && <InlineError error={query.error} onRetry={() => void query.refetch()} />}
      {query.isSuccess && isEmpty && empty}
      {footer}
    </div>
  );
}

const columnLabel = (c: Column): string => (typeof c === "string" ? c : c.label);

/**
 * Each body cell carries its column's name in `data-label`: at phone width a row is drawn as a
 * stacked card whose cells say what they are (pages-phone.css). Rows re-render on their own
 * (an inline edit, a status change), so a MutationObserver keeps new cells labelled.
 */
export function useCellLabels(body: React.RefObject<HTMLTableSectionElement | null>, columns: readonly Column[]) {
  const names = columns.map(columnLabel).join("\n"); // pages pass a fresh array each render
  useLayoutEffect(() => {
    const labels = names.split("\n");
    const tbody = body.current;
    if (!tbody) return;
    const label = () => {
      for (const row of tbody.querySelectorAll(":scope > tr")) {
        let at = 0;
        for (const cell of row.querySelectorAll<HTMLElement>(":scope > td, :scope > th")) {
          const span = Number(cell.getAttribute("colspan") ?? 1) || 1;
          const text = span > 1 ? "" : (labels[at] ?? "");
          if (cell.dataset.label !== text) cell.dataset.label = text;
          at += span;
        }
      }
    };
    label();
    const observer = new MutationObserver(label);
    observer.observe(tbody, { childList: true, subtree: true });
    return () => observer.disconnect();
  }, [body, names]);
}

export function EmptyState({ children, action }: { children: ReactNode; action?: ReactNode }) {
  return (
    <div className="empty-state">
      <p>{children}</p>
      {action}
    </div>
  );
}

export type Tone = "success" | "warning" | "danger" | "neutral";

/** Status is a dot plus a word, never colour alone. */
export function StatusDot({ tone, children }: { tone: Tone; children: ReactNode }) {
  return (
    <span className={`status status-${tone}`}>
      <span className="status-dot" aria-hidden="true" />
      {children}
    </span>
  );
}

export function Field({ label, hint, error, children }: { label: string; hint?: ReactNode; error?: string | null; children: (ids: FieldIds) => ReactNode }) {
  const id = useId();
  const ids = { id, hintId: hint ? `${id}-hint` : undefined, errorId: error ? `${id}-error` : undefined };
  return (
    <div className="field">
      <label htmlFor={id} className="field-label">
        {label}
      </label>
      {children(ids)}
      {hint && (
        <span id={ids.hintId} className="field-hint">
          {hint}
        </span>
      )}
      {error && (
        <span id={ids.errorId} className="field-error">
          {error}
        </span>
      )}
    </div>
  );
}

export interface FieldIds {
  id: string;
  hintId?: string;
  errorId?: string;
}

/** aria props for a control inside <Field>. */
export function fieldProps(ids: FieldIds, invalid = false) {
  const describedBy = [ids.hintId, ids.errorId].filter(Boolean).join(" ") || undefined;
  return { id: ids.id, "aria-describedby": describedBy, "aria-invalid": invalid || undefined };
}

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });

export function formatTime(ts: string | null | undefined): string {
  if (!ts) return "—";
  const d = new Date(ts);
  return Number.isNaN(d.getTime()) ? ts : dateTime.format(d);
}

export function Time({ ts }: { ts: string | null | undefined }) {
  return ts ? <time dateTime={ts}>{formatTime(ts)}</time> : <span>—</span>;
}

/** A value that follows `value` after `ms` of quiet (search fields). */
export function useDebounced<T>(value: T, ms: number): T {
  const [v, setV] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setV(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return v;
}
