/**
 * One picture of the plugin: a surface is rendered by the real UI code (against the Obsidian mocks,
 * with content from real runs where that is cheap) and placed in a frame that rebuilds Obsidian's
 * own markup around it. Adding a surface is adding a file under `surfaces/` that exports `surfaces`.
 */

/** Where Obsidian shows the surface; the frame rebuilds that part of Obsidian's window around it. */
export type FrameKind = "modal" | "side-view" | "tab-view" | "settings" | "notice" | "status-bar";

export interface Rendered {
  /** The modal's or the view's title. */
  readonly title?: string;
  /** What the UI code built: a modal's contentEl, a view's contentEl, a settings tab's containerEl, a notice's message. */
  readonly content: HTMLElement;
  /** A tooltip to show open (the status bar's detail). */
  readonly tooltip?: string;
}

export interface Surface {
  /** The picture's name, `<surface>` in `<surface>-<theme>-<width>.png`: lowercase words and dashes. */
  readonly name: string;
  readonly frame: FrameKind;
  /** A view's type, as Obsidian marks its leaf (`data-type`). */
  readonly viewType?: string;
  render(): Promise<Rendered>;
}
