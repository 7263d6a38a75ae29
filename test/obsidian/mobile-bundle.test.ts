/**
 * The built plugin on a phone: main.js must load and ingest with no Node.js at all. Node's
 * built-ins are required only by the desktop streaming transport, which the plugin loads behind
 * Platform.isDesktopApp; here every `require` but "obsidian" throws, as it would on mobile.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Plugin as PluginOriginal, PluginManifest } from "obsidian";
import * as obsidian from "obsidian-test-mocks/obsidian";
import { App, Platform, Plugin } from "obsidian-test-mocks/obsidian";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { PluginEnvironment } from "../../src/obsidian/environment";
import type { QueryController } from "../../src/ui/query-view";
import { DEFAULT_SETTINGS } from "../../src/settings/schema";
import { evaluateBundle, mobileRequire } from "./load-bundle";
import { MANIFEST, readBinaryOfTextFiles } from "./plugin-harness";
import { installThreadWorkers } from "../helpers/node-web-worker";

const desktop = { isDesktopApp: Platform.isDesktopApp, isMobile: Platform.isMobile, isMobileApp: Platform.isMobileApp };

// The bundle's own worker script serves the index, in a thread as a phone's Web Worker would run it.
let uninstallWorkers: () => Promise<void> = () => Promise.resolve();

beforeAll(() => {
  Object.assign(Platform, { isDesktopApp: false, isMobile: true, isMobileApp: true });
  uninstallWorkers = installThreadWorkers();
});
afterAll(async () => {
  Object.assign(Platform, desktop);
  await uninstallWorkers();
});

describe("on mobile", () => {
  it("the built main.js loads, registers everything and ingests with the Offline provider, requiring nothing but obsidian", async () => {
    execFileSync(process.execPath, ["esbuild.config.mjs", "--plugin", "production"], { stdio: "pipe" });
    const source = readFileSync(join(process.cwd(), "main.js"), "utf8");
    const required: string[] = [];
    const module = evaluateBundle(source, mobileRequire(obsidian, required));
    const SynapsePlugin = module.exports.default as new (app: unknown, manifest: PluginManifest) => PluginOriginal;

    const app = App.createConfigured__({ files: { "Notes/Bees.md": "# Bees\n\nBees make [[Honey]] from nectar." } });
    readBinaryOfTextFiles(app);
    const plugin = new SynapsePlugin(app.asOriginalType__(), MANIFEST);
    await plugin.onload();
    const registered = Plugin.fromOriginalType2__(plugin);
    expect([...registered.commands__.keys()].sort()).toEqual(["ask-the-wiki", "cancel-ingest", "check-wiki-health", "collect-batch-results", "ingest-active-note", "ingest-folder", "reingest-active-note", "retract-deleted-source", "retry-failed-ingests", "review-proposals", "show-batch-status", "show-failed-ingests", "undo-last-change"]);

    const file = app.vault.getFileByPath("Notes/Bees.md");
    vi.spyOn(app.workspace, "getActiveFile").mockReturnValue(file);
    registered.commands__.get("ingest-active-note")?.checkCallback?.(false);
    const ingest = (plugin as unknown as { ingest: { settled(): Promise<void> } }).ingest;
    await ingest.settled();
    expect(app.vault.getFiles().map((f) => f.path)).toEqual(expect.arrayContaining(["wiki/index.md", "wiki/log.md"]));

    // Asking the wiki on a phone: the answer arrives whole, nothing streams piece by piece.
    const query = (plugin as unknown as { query: { ask: QueryController["ask"] } }).query;
    const pieces: string[] = [];
    const report = await query.ask("How do bees make honey?", { general: false, signal: new AbortController().signal, onText: (t) => pieces.push(t) });
    expect(report.error).toBeNull();
    expect(report.grounding).toBe("vault");
    expect(report.answer).toContain("nectar");
    expect(pieces).toEqual([]);
    expect(required.filter((id) => id !== "obsidian")).toEqual([]);
  });

  it("streaming falls back to requestUrl, so the API providers need no Node transport", async () => {
    const env = await new PluginEnvironment(App.createConfigured__().asOriginalType__()).build(DEFAULT_SETTINGS);
    expect(env.streamingFetch).toBe(env.fetch);
    expect(env.browserLike).toBe(true);
  });
});
