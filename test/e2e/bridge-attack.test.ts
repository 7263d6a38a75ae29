/**
 * A hostile agent, run by the real SDK: it tries to write into the vault, above the staging folder
 * and into /tmp, to run a shell, to fetch a URL, to read and search the user's private notes, and
 * to overwrite the source note. Everything outside the staged wiki is refused, reported, and
 * unchanged; the one legitimate page still comes back.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BridgeEvent, ResultEvent } from "../../src/core/bridge-protocol";
import { startBridgeServer, type BridgeServer } from "../../src/bridge/server";
import { ingestEvents } from "../helpers/bridge-client";
import { bridgeEnv, makeVault, NOTE_PATH, pageMarkdown, tempHome, type TestVault } from "../helpers/bridge-fixtures";
import { startScriptedMessagesApi, textTurn, toolTurn, type ScriptedMessagesApi } from "../helpers/scripted-messages-api";
import { until } from "../helpers/eventually";

const TOKEN = "attack-token-0123456789abcdef";

describe("a hostile agent in the bridge", () => {
  let vault: TestVault;
  let home: ReturnType<typeof tempHome>;
  let outside: string;
  let api: ScriptedMessagesApi;
  let bridge: BridgeServer;
  let before: Map<string, string>;
  let events: BridgeEvent[];
  let result: ResultEvent;
  let stagingParent: string;

  beforeAll(async () => {
    vault = makeVault();
    home = tempHome();
    outside = mkdtempSync(join(tmpdir(), "synapse-outside-"));
    stagingParent = mkdtempSync(join(tmpdir(), "synapse-stagings-"));
    const privateNote = join(vault.root, "Private", "diary.md");
    api = await startScriptedMessagesApi([
      toolTurn("Write", { file_path: join(vault.root, "Private", "new.md"), content: "pwned" }),
      toolTurn("Write", { file_path: "../escape.md", content: "pwned" }),
      toolTurn("Write", { file_path: join(outside, "x.md"), content: "pwned" }),
      toolTurn("Bash", { command: `touch ${join(outside, "shell-was-here")}` }),
      toolTurn("WebFetch", { url: "http://127.0.0.1:9/", prompt: "exfiltrate" }),
      toolTurn("Read", { file_path: privateNote }),
      toolTurn("Glob", { pattern: `${vault.root}/**/*.md` }),
      toolTurn("Grep", { pattern: "Diary", path: vault.root }),
      toolTurn("Write", { file_path: NOTE_PATH, content: "the source note, overwritten" }),
      toolTurn("Write", { file_path: "wiki/notes.txt", content: "not a page" }),
      toolTurn("Read", { file_path: NOTE_PATH }),
      toolTurn("Edit", { file_path: NOTE_PATH, old_string: "# Local-first software", new_string: "pwned" }),
      toolTurn("Write", { file_path: "wiki/sources/Local-first software.md", content: pageMarkdown("Local-first software") }),
      textTurn("done"),
    ]);
    bridge = await startBridgeServer({ vaults: [vault.root], token: TOKEN, port: 0, version: "test", env: bridgeEnv(api.url, home.path), stagingParent });
    before = vault.snapshot();
    const run = await ingestEvents(bridge.url, TOKEN, {
      vault: vault.root,
      notePath: NOTE_PATH,
      wikiFolder: "wiki",
      maxTurns: 30,
      maxBudgetUsd: 1,
    });
    events = run.events;
    const last = events.at(-1);
    if (last?.type !== "result") throw new Error(`expected a result event, got ${JSON.stringify(last)}`);
    result = last;
  });

  afterAll(async () => {
    await bridge.close();
    await api.close();
    vault.dispose();
    home.dispose();
    rmSync(outside, { recursive: true, force: true });
    rmSync(stagingParent, { recursive: true, force: true });
  });

  it("changes nothing outside the staging copy", () => {
    expect(vault.snapshot()).toEqual(before);
    expect(readdirSync(outside)).toEqual([]);
    expect(existsSync(join(stagingParent, "escape.md"))).toBe(false);
  });

  it("refuses and reports every call that leaves the staging folder or the wiki", () => {
    const denied = result.denied.map((d) => `${d.tool} ${d.target ?? ""}`.trim());
    const privateNote = join(vault.root, "Private", "diary.md");
    expect(denied).toEqual([
      `Write ${join(vault.root, "Private", "new.md")}`,
      `Write ${join(stagingParent, "escape.md")}`, // the SDK resolves paths before asking
      `Write ${join(outside, "x.md")}`,
      "Bash",
      "WebFetch",
      `Read ${privateNote}`,
      `Glob ${vault.root}/**/*.md`,
      `Grep ${vault.root}`,
      `Write ${NOTE_PATH}`,
      "Write wiki/notes.txt",
      `Edit ${NOTE_PATH}`,
    ]);
    expect(result.denied.find((d) => d.tool === "Write" && d.target === NOTE_PATH)?.reason).toBe("only files inside the wiki folder may be written");
    // Each refusal was streamed as it happened, too.
    expect(events.filter((e) => e.type === "denied")).toHaveLength(11);
  });

  it("never lets the private note's text reach the model", () => {
    const sent = JSON.stringify(api.requests.map((r) => r.body));
    expect(sent).not.toContain("Nothing for the agent.");
    expect(sent).not.toContain("Private/diary.md\\n"); // no Glob or Grep result listing it
  });

  it("still returns the legitimate page, and only that", () => {
    expect(result.outcome.ok).toBe(true);
    expect(result.pages.map((p) => [p.path, p.action])).toEqual([["wiki/sources/Local-first software.md", "created"]]);
    expect(result.ignored).toEqual([]);
  });

  it("removes its staging copy when the run is over", async () => {
    await until(() => bridge.activeRuns() === 0, "the bridge's run ends");
    expect(readdirSync(stagingParent)).toEqual([]);
  });
});
