/**
 * The tab's "something happened while you were away" mark: a count and a dot in the title
 * ("(2) ● Coffer") and a dotted favicon, until the owner looks again. The title the page had
 * is restored exactly; a title the app sets meanwhile is kept under the mark.
 */
const PREFIX = /^\(\d+\) ● /;
const DOTTED_ICON =
  "data:image/svg+xml,%3Csvg xmlns=%22http://www.w3.org/2000/svg%22 viewBox=%220 0 16 16%22%3E%3Crect width=%2216%22 height=%2216%22 rx=%224%22 fill=%22%234353D8%22/%3E%3Ccircle cx=%2212%22 cy=%224%22 r=%224%22 fill=%22%23E5484D%22 stroke=%22white%22 stroke-width=%221.5%22/%3E%3C/svg%3E";

export class TabMark {
  private count = 0;
  private plainIcon: string | null = null;

  constructor(private readonly doc: Document = document) {}

  get marked(): number {
    return this.count;
  }

  mark(): void {
    this.count += 1;
    this.doc.title = `(${this.count}) ● ${this.doc.title.replace(PREFIX, "")}`;
    const icon = this.icon();
    if (icon && this.plainIcon === null) {
      this.plainIcon = icon.href;
      icon.href = DOTTED_ICON;
    }
  }

  clear(): void {
    if (!this.count) return;
    this.count = 0;
    this.doc.title = this.doc.title.replace(PREFIX, "");
    const icon = this.icon();
    if (icon && this.plainIcon !== null) icon.href = this.plainIcon;
    this.plainIcon = null;
  }

  private icon(): HTMLLinkElement | null {
    return this.doc.querySelector<HTMLLinkElement>('link[rel="icon"]');
  }
}
