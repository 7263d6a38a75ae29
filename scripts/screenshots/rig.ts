/**
 * Real runs for the pictures: the plugin loaded against the mocks with the example vault, its notes
 * ingested by the Offline backend (the default: no model, no network), so the pages, the review
 * plans, the notices and the answers shown are the ones a user of the example vault would see.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import type { Modal } from "obsidian-test-mocks/obsidian";
import { loadPlugin, runCommand, type Harness } from "../../test/obsidian/plugin-harness";
import type { PluginSeams } from "../../src/main";

const EXAMPLES = join(import.meta.dirname, "../../examples/vault");

/** The example vault's notes, by vault path. */
export function exampleVault(): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith(".md")) files[relative(EXAMPLES, path)] = readFileSync(path, "utf8");
    }
  };
  walk(EXAMPLES);
  return files;
}

export interface Rig {
  readonly harness: Harness;
  /** Every notice's message element, as the plugin built it (text, and buttons when it has any). */
  readonly notices: HTMLElement[];
}

/**
 * The plugin with the example vault. Reviews are off unless `data` sets `reviewMode`: nobody is
 * there to answer a review window, and a run waiting on one would never end.
 */
export async function rig(options: { data?: Record<string, unknown>; seams?: PluginSeams; files?: Record<string, string> } = {}): Promise<Rig> {
  const data = { version: 1, reviewMode: "never", ...options.data };
  const harness = await loadPlugin({ files: options.files ?? exampleVault(), data, ...(options.seams ? { seams: options.seams } : {}) });
  await harness.plugin.recovered;
  return { harness, notices: harness.noticeEls };
}

/** Ingests one note through the command, as a user would, and waits until the queue is idle. */
export async function ingest(harness: Harness, notePath: string): Promise<void> {
  harness.activate(notePath);
  runCommand(harness, "ingest-active-note");
  await harness.plugin.ingest?.settled();
}

/** The example vault with every note ingested. */
export async function ingestedRig(options: { data?: Record<string, unknown>; seams?: PluginSeams } = {}): Promise<Rig> {
  const r = await rig(options);
  for (const path of Object.keys(exampleVault()).sort()) await ingest(r.harness, path);
  return r;
}

/** The last modal opened whose content is, or holds, an element of class `cls`. */
export function lastModal(harness: Harness, cls: string): Modal {
  const found = [...harness.opened].reverse().find((m) => m.contentEl.classList.contains(cls) || m.contentEl.querySelector(`.${cls}`) !== null);
  if (!found) throw new Error(`No modal with .${cls} was opened`);
  return found;
}
