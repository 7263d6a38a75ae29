import { describe, expect, it } from "vitest";
import { runLint, type LintDeps } from "../../src/lint/run-lint";
import { DEFAULT_SETTINGS } from "../../src/settings/schema";
import { MemoryStateStore } from "../../src/vault/memory-state-store";
import { MemoryVault } from "../../src/vault/memory-vault";
import type { WriteContext } from "../../src/write/apply";
import { noteFingerprint } from "../../src/wiki/source-registry";
import { recordSource } from "../helpers/record-source";

const NOW = () => Date.UTC(2026, 11, 1, 1, 0);
const NOTE = "notes/ada.md";
const NOTE_TEXT = "My notes on [[Countess]], filed under [[wiki/entities/Misfiled|the misfiled page]].\n";

const page = (type: string, title: string, extra: string, body: string) => `---\ntype: ${type}\ntitle: ${title}\n${extra}sources: [${NOTE}]\n---\n\n${body}\n`;

/** A wiki drawn from one note that links to a duplicate page and, by its path, to a misfiled page. */
async function wiki() {
  const vault = new MemoryVault({
    [NOTE]: NOTE_TEXT,
    "wiki/concepts/Ada.md": page("concept", "Ada", "aliases: [Countess]\n", "Ada, see [[Misfiled]]."),
    "wiki/concepts/Countess.md": page("concept", "Countess", "", "The Countess, see [[Ada]]."),
    "wiki/entities/Misfiled.md": page("concept", "Misfiled", "", "A concept among entities, see [[Ada]]."),
    "wiki/index.md": "# Index\n\n- [[wiki/concepts/Ada|Ada]]\n- [[wiki/concepts/Countess|Countess]]\n- [[wiki/entities/Misfiled|Misfiled]]\n",
  });
  const store = new MemoryStateStore();
  const pages = ["wiki/concepts/Ada.md", "wiki/concepts/Countess.md", "wiki/entities/Misfiled.md"];
  await recordSource(store, NOTE, { hash: await noteFingerprint(NOTE_TEXT), ingestedAt: new Date(NOW()).toISOString(), wikiFolder: "wiki", pages });
  const write: WriteContext = { store, writer: { kind: "cli", pid: 1, host: "here" } };
  const deps: LintDeps = { vault, settings: DEFAULT_SETTINGS, store, write, now: NOW };
  return { vault, deps };
}

describe("lint fixes leave the user's notes alone", () => {
  it("a finding whose fix removes or moves a page names the notes that link to it", async () => {
    const { deps } = await wiki();
    const { findings } = await runLint(deps);
    expect(findings.find((f) => f.check === "duplicate")?.message).toBe(
      `"Ada" and "Countess" name the same thing. Links to "Countess" in your notes are left as they are: "ada".`,
    );
    expect(findings.find((f) => f.check === "wrong-folder")?.message).toBe(`A concept page outside wiki/concepts/. Links to its path in your notes are left as they are: "ada".`);
    expect(findings.filter((f) => f.check === "stale")).toEqual([]);
  });

  it("after merge and move fixes the note is byte for byte what it was, so a second lint finds no stale page", async () => {
    const { vault, deps } = await wiki();
    const fixed = await runLint(deps, { fix: "all" });
    expect(fixed.error).toBeNull();
    expect(fixed.fixed.map((f) => f.check).sort()).toEqual(["duplicate", "wrong-folder"]);
    expect(await vault.stat("wiki/concepts/Countess.md")).toBeNull();
    expect(await vault.read("wiki/concepts/Misfiled.md")).toContain("A concept among entities");
    expect(await vault.read(NOTE)).toBe(NOTE_TEXT);
    expect(fixed.findings.filter((f) => f.check === "stale")).toEqual([]);

    const again = await runLint(deps);
    expect(again.findings.filter((f) => f.check === "stale")).toEqual([]);
  });
});
