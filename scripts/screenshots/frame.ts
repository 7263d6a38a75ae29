/**
 * Obsidian's window around a rendered surface: the workspace with a note open, a modal over it, a
 * side view in the right sidebar, the settings window, a notice, the status bar. The markup uses
 * Obsidian's own class names, so `obsidian.css` (and the plugin's `styles.css`) style it as the app
 * would. Width and theme are the page's (`run.ts`): the same frame serves desktop and phone.
 */
import type { FrameKind, Rendered } from "./surface";

const NOTE_TEXT = [
  "Ada Lovelace wrote what is often called the first computer program: a method for the Analytical Engine to compute Bernoulli numbers.",
  "Her notes on Menabrea's paper are three times as long as the paper itself.",
];

function note(parent: HTMLElement): void {
  const leaf = parent.createDiv({ cls: "workspace-leaf mod-active" }).createDiv({ cls: "workspace-leaf-content", attr: { "data-type": "markdown" } });
  leaf.createDiv({ cls: "view-header" }).createDiv({ cls: "view-header-title", text: "Ada Lovelace" });
  const body = leaf.createDiv({ cls: "view-content" }).createDiv({ cls: "markdown-reading-view" }).createDiv({ cls: "markdown-rendered markdown-preview-view" });
  body.createEl("h1", { text: "Ada Lovelace" });
  for (const text of NOTE_TEXT) body.createEl("p", { text });
}

function view(parent: HTMLElement, type: string, rendered: Rendered): void {
  const leaf = parent.createDiv({ cls: "workspace-leaf mod-active" }).createDiv({ cls: "workspace-leaf-content", attr: { "data-type": type } });
  leaf.createDiv({ cls: "view-header" }).createDiv({ cls: "view-header-title", text: rendered.title ?? "" });
  rendered.content.addClass("view-content");
  leaf.appendChild(rendered.content);
}

function workspace(root: HTMLElement, main: (split: HTMLElement) => void, right?: (split: HTMLElement) => void): void {
  const app = root.createDiv({ cls: "app-container" });
  const ws = app.createDiv({ cls: "workspace" });
  ws.createDiv({ cls: "workspace-ribbon mod-left" });
  main(ws.createDiv({ cls: "workspace-split mod-root" }));
  if (right) right(ws.createDiv({ cls: "workspace-split mod-right-split" }));
  const bar = app.createDiv({ cls: "status-bar" });
  bar.createDiv({ cls: "status-bar-item", text: "214 words" });
}

function modal(root: HTMLElement, title: string | undefined, extraClass = ""): HTMLElement {
  const container = root.createDiv({ cls: "modal-container mod-dim" });
  container.createDiv({ cls: "modal-bg" });
  const box = container.createDiv({ cls: `modal ${extraClass}`.trim() });
  box.createDiv({ cls: "modal-close-button", attr: { "aria-label": "Close" } });
  if (title) box.createDiv({ cls: "modal-header" }).createDiv({ cls: "modal-title", text: title });
  return box;
}

const SETTINGS_TABS = ["General", "Editor", "Files and links", "Appearance", "Hotkeys", "Core plugins", "Community plugins"];

/** Sets each form control's current state as attributes, which is what serialising keeps. */
function freezeControls(root: HTMLElement): void {
  for (const input of Array.from(root.querySelectorAll("input"))) {
    if (input.type === "checkbox") input.toggleAttribute("checked", input.checked);
    else input.setAttribute("value", input.value);
    if (input.disabled) input.setAttribute("disabled", "");
  }
  for (const area of Array.from(root.querySelectorAll("textarea"))) area.textContent = area.value;
  for (const select of Array.from(root.querySelectorAll("select"))) {
    for (const option of Array.from(select.options)) option.toggleAttribute("selected", option.value === select.value);
  }
  for (const button of Array.from(root.querySelectorAll("button"))) button.toggleAttribute("disabled", button.disabled);
}

/** The body of the page for one surface, as HTML. */
export function frame(kind: FrameKind, viewType: string, rendered: Rendered): string {
  const root = createDiv();
  freezeControls(rendered.content);
  // measure.ts looks for what sticks out sideways inside the surface, not in the frame around it.
  rendered.content.setAttribute("data-shot-surface", "");
  switch (kind) {
    case "modal": {
      workspace(root, note);
      rendered.content.addClass("modal-content");
      modal(root, rendered.title).appendChild(rendered.content);
      break;
    }
    case "settings": {
      workspace(root, note);
      const box = modal(root, undefined, "mod-settings mod-sidebar-layout");
      const tabs = box.createDiv({ cls: "modal-content vertical-tabs-container" });
      const header = tabs.createDiv({ cls: "vertical-tab-header" });
      const group = header.createDiv({ cls: "vertical-tab-header-group" });
      group.createDiv({ cls: "vertical-tab-header-group-title", text: "Options" });
      for (const name of SETTINGS_TABS) group.createDiv({ cls: "vertical-tab-nav-item", text: name });
      const plugins = header.createDiv({ cls: "vertical-tab-header-group" });
      plugins.createDiv({ cls: "vertical-tab-header-group-title", text: "Community plugins" });
      plugins.createDiv({ cls: "vertical-tab-nav-item is-active", text: "Synapse" });
      rendered.content.addClass("vertical-tab-content");
      tabs.createDiv({ cls: "vertical-tab-content-container" }).appendChild(rendered.content);
      break;
    }
    case "side-view":
      workspace(root, note, (split) => view(split, viewType, rendered));
      break;
    case "tab-view":
      workspace(root, (split) => view(split, viewType, rendered));
      break;
    case "notice": {
      workspace(root, note);
      rendered.content.addClass("notice");
      root.createDiv({ cls: "notice-container" }).appendChild(rendered.content);
      break;
    }
    case "status-bar": {
      workspace(root, note);
      const bar = root.querySelector(".status-bar");
      rendered.content.addClass("status-bar-item", "plugin-synapse");
      bar?.prepend(rendered.content);
      if (rendered.tooltip) root.createDiv({ cls: "tooltip mod-top synapse-shot-tooltip", text: rendered.tooltip });
      break;
    }
  }
  // Serialising is reading, not writing: the page is built from this text outside the DOM.
  return root.innerHTML;
}
