/**
 * Loads the real plugin against obsidian-test-mocks: an in-memory vault, secret storage and
 * workspace, whose leaves build the plugin's registered views as Obsidian's do (leaf-views.ts). Also records what the plugin showed (notices, result modals) by listening on the
 * mocks' own hooks, so tests assert on what a user would see.
 */
import type { PluginManifest, TFile } from "obsidian";
import { App, Modal, Notice, Plugin } from "obsidian-test-mocks/obsidian";
import { vi } from "vitest";
import manifest from "../../manifest.json";
import { buildViewsOnSetViewState } from "./leaf-views";
import SynapsePlugin, { type PluginSeams } from "../../src/main";
import { inProcessWorker } from "../helpers/in-process-worker";

export const MANIFEST: PluginManifest = manifest;

export interface Harness {
  readonly app: App;
  readonly plugin: SynapsePlugin;
  /** Mock-side view of the plugin: what it registered and what it saved. */
  readonly registered: Plugin;
  /** Each notice's text, without the labels of its buttons. */
  readonly notices: string[];
  /** Each notice's message as built (text and buttons), to click what a notice offers. */
  readonly noticeEls: HTMLElement[];
  /** The content of every modal the plugin opened, captured when it opened. */
  readonly modals: HTMLElement[];
  /** The modals themselves, in the order they were opened. */
  readonly opened: Modal[];
  /** What clicking the ribbon button does. */
  clickRibbon(): void;
  /** Makes `path` the active note, as if the user had opened it. */
  activate(path: string | null): void;
  read(path: string): Promise<string>;
}

export async function loadPlugin(
  options: { files?: Record<string, string>; data?: unknown; seams?: PluginSeams; /** An app to load into again, as after a restart of Obsidian. */ app?: App } = {},
): Promise<Harness> {
  const app = options.app ?? App.createConfigured__({ files: options.files ?? {} });
  if (!options.app) readBinaryOfTextFiles(app);
  const notices: string[] = [];
  const noticeEls: HTMLElement[] = [];
  const modals: HTMLElement[] = [];
  const opened: Modal[] = [];
  vi.spyOn(Notice.prototype, "constructor__").mockImplementation((message: string | DocumentFragment) => {
    // The mock shows a copy of the message, whose buttons lost their listeners; keep the original.
    const el = createDiv();
    if (typeof message === "string") el.setText(message);
    else el.appendChild(message);
    noticeEls.push(el);
    const text = el.cloneNode(true) as HTMLElement;
    for (const row of Array.from(text.querySelectorAll(".synapse-notice-actions"))) row.remove();
    notices.push(text.textContent ?? "");
  });
  // Opening a modal renders it and keeps a copy of what it showed (the mock would close it at once).
  vi.spyOn(Modal.prototype, "open").mockImplementation(function (this: Modal) {
    this.onOpen();
    opened.push(this);
    modals.push(this.contentEl.cloneNode(true) as HTMLElement);
  });
  const ribbon = vi.spyOn(Plugin.prototype, "addRibbonIcon");
  // The index runs behind the worker protocol, served in process (the sources carry no built worker script).
  const plugin = new SynapsePlugin(app.asOriginalType__(), MANIFEST, { indexWorker: inProcessWorker(), ...options.seams });
  const registered = Plugin.fromOriginalType2__(plugin);
  if (options.data !== undefined) registered.data__ = options.data;
  // Opening a view by its type builds it, as in Obsidian (the mocks' leaves build none).
  buildViewsOnSetViewState(app, registered);
  await plugin.onload();
  let active: TFile | null = null;
  vi.spyOn(app.workspace, "getActiveFile").mockImplementation(() => active as never);
  return {
    app,
    plugin,
    registered,
    notices,
    noticeEls,
    modals,
    opened,
    clickRibbon() {
      const callback = ribbon.mock.calls[0]?.[2];
      if (!callback) throw new Error("No ribbon button");
      callback(new MouseEvent("click"));
    },
    activate(path) {
      active = path === null ? null : (app.vault.getFileByPath(path) as unknown as TFile | null);
      if (path !== null && active === null) throw new Error(`No file at ${path}`);
    },
    read: async (path) => {
      const file = app.vault.getFileByPath(path);
      if (!file) throw new Error(`No file at ${path}`);
      return app.vault.read(file);
    },
  };
}

/** Clicks the button labelled `label` on the last notice that has one. */
export function clickNotice(harness: Harness, label: string): void {
  const button = [...harness.noticeEls].reverse().flatMap((el) => [...el.querySelectorAll("button")]).find((b) => b.textContent === label);
  if (!button) throw new Error(`No notice offers "${label}"`);
  button.click();
}

/** Runs a command as the palette does: checkCallback(true) to list it, then (false) to run it. */
export function runCommand(harness: Harness, id: string): boolean {
  const command = harness.registered.commands__.get(id);
  if (!command) throw new Error(`No command ${id}`);
  if (command.checkCallback) {
    if (!command.checkCallback(true)) return false;
    command.checkCallback(false);
    return true;
  }
  command.callback?.();
  return true;
}

/**
 * The mock's in-memory adapter keeps text and binary files apart, so `readBinary` of a note fails
 * there, while real Obsidian reads any file's bytes. And the mock hands out the buffer it keeps,
 * while Obsidian reads the file again into a new one: a buffer the plugin transfers to the index's
 * worker must not take the file's bytes with it. Give the mock Obsidian's behaviour.
 */
export function readBinaryOfTextFiles(app: App): void {
  const adapter = app.vault.adapter as unknown as { readBinary(path: string): Promise<ArrayBuffer>; read(path: string): Promise<string> };
  const readBinary = adapter.readBinary.bind(adapter);
  const read = adapter.read.bind(adapter);
  vi.spyOn(adapter, "readBinary").mockImplementation(async (path: string) => {
    try {
      return (await readBinary(path)).slice(0);
    } catch {
      // The mock's own `read`, not a spied one: a path that is neither text nor bytes fails once, here.
      return new TextEncoder().encode(await read(path)).buffer;
    }
  });
}

/** The index's status-bar line: every text it shows from now on, in order. */
export function statusTexts(harness: Harness): string[] {
  const element = harness.registered.statusBarItems__[1] as HTMLElement;
  const texts: string[] = [];
  const setText = element.setText.bind(element);
  vi.spyOn(element, "setText").mockImplementation((text: string | DocumentFragment) => {
    texts.push(typeof text === "string" ? text : (text.textContent ?? ""));
    setText(text);
  });
  return texts;
}
