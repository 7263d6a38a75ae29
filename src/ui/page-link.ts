/**
 * A link to a vault page that behaves like the links in Obsidian's own lists (backlinks, search):
 * a real internal-link anchor with `data-href`, labelled by the page's title with its path in the
 * tooltip; a click opens it, Ctrl/Cmd-click or a middle click in a new tab; hovering asks the Page
 * preview core plugin for its popover; it is reachable by Tab and opened by Enter. A page that does
 * not exist is plain text: clicking a link to it would make Obsidian create the file.
 */
import { Keymap, type App, type HoverParent, type PaneType } from "obsidian";

export interface PageLinkHost {
  readonly app: App;
  /** The view the popover belongs to. */
  readonly hoverParent: HoverParent;
  /** The id the view registered with `registerHoverLinkSource`. */
  readonly source: string;
  readonly open: (path: string, newLeaf: PaneType | boolean) => void;
}

/** "wiki/concepts/Orphaned idea.md" → "Orphaned idea": the name Obsidian shows for a file. */
export function pageTitle(path: string): string {
  return (path.split("/").pop() ?? path).replace(/\.md$/i, "");
}

export function renderPageLink(parent: HTMLElement, path: string, exists: boolean, host: PageLinkHost): HTMLElement {
  if (!exists) {
    return parent.createSpan({ cls: "synapse-page-link is-unresolved", text: pageTitle(path), attr: { "aria-label": `${path} (does not exist yet)` } });
  }
  const link = parent.createEl("a", { cls: "internal-link synapse-page-link", text: pageTitle(path), href: path, attr: { "data-href": path, "aria-label": path } });
  link.addEventListener("click", (event) => {
    event.preventDefault();
    host.open(path, Keymap.isModEvent(event));
  });
  // A middle click fires auxclick, not click; Obsidian opens the page in a new tab.
  link.addEventListener("auxclick", (event) => {
    if (event.button !== 1) return;
    event.preventDefault();
    host.open(path, "tab");
  });
  link.addEventListener("mouseover", (event) => {
    host.app.workspace.trigger("hover-link", { event, source: host.source, hoverParent: host.hoverParent, targetEl: link, linktext: path, sourcePath: "" });
  });
  return link;
}
