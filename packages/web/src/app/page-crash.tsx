import { Component, type ReactNode } from "react";

/**
 * The last line of defence: a render error anywhere below would otherwise make React unmount
 * the whole page and leave the owner a blank screen with no way to tell what happened. Drafts
 * survive a reload (draft-store.ts keeps them in localStorage), so Reload is safe to offer.
 */
export class PageCrash extends Component<{ children: ReactNode }, { error: Error | null }> {
  override state = { error: null as Error | null };

  static getDerivedStateFromError(error: unknown) {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  override render() {
    if (!this.state.error) return this.props.children;
    return (
      <div className="no-token" role="alertdialog" aria-labelledby="page-crash-title">
        <h1 id="page-crash-title">This page hit an error</h1>
        <p>
          Nothing on the daemon was lost, and your drafts are kept. <button type="button" className="btn" onClick={() => location.reload()}>Reload</button>
        </p>
        <p className="muted">{this.state.error.message}</p>
      </div>
    );
  }
}
