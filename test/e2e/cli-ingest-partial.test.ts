/**
 * A note whose last ingest was partly applied at review (in Obsidian) is not "already up to date"
 * for the CLI either: `synapse ingest` runs again and writes what the review left out (the CLI
 * applies every change; `--diff` shows them first, `--dry-run` only lists them).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { OfflineProvider } from "../../src/providers/offline/offline-provider";
import { DEFAULT_SETTINGS } from "../../src/settings/schema";
import { NodeVault } from "../../src/vault/node-vault";
import { nodeWriteContext } from "../../src/node/write-context";
import { ingestNote } from "../../src/wiki/ingest-note";
import { runCli } from "../helpers/run-cli";
import { makeVault } from "../helpers/temp-vault";

const NOTE = "notes/Ada Lovelace.md";
const TEXT = "# Ada Lovelace\n\nAda Lovelace wrote the first program for the [[Analytical Engine]] of Charles Babbage. Charles Babbage designed it.\n";
// The opening paragraph changes too: it is the quote on every term page, so more than one page changes.
const MORE = `${TEXT.replace("wrote the first program", "wrote the first published program")}\nThe [[Analytical Engine]] was never finished. Charles Babbage kept revising it.\n`;

describe("synapse ingest after a review that left changes out", () => {
  it("ingests the note again and writes what was left out, instead of 'already up to date'", async () => {
    const vault = makeVault({ [NOTE]: TEXT });
    expect((await runCli(["ingest", NOTE, "--vault", vault])).code).toBe(0);
    writeFileSync(join(vault, NOTE), MORE);

    // The plugin's review, applying one change and leaving the others out.
    let leftOut: string[] = [];
    const partial = await ingestNote(
      { vault: new NodeVault(vault), provider: new OfflineProvider(), settings: DEFAULT_SETTINGS, write: nodeWriteContext(vault, { kind: "cli", env: {} }) },
      {
        notePath: NOTE,
        review: (plan) => {
          const changes = plan.changes.filter((c) => c.before !== null).map((c) => c.path);
          leftOut = changes.slice(1);
          return Promise.resolve(plan.changes.map((c) => c.path).filter((p) => !leftOut.includes(p)));
        },
      },
    );
    expect(partial.error).toBeNull();
    expect(leftOut.length).toBeGreaterThan(0);
    const before = Object.fromEntries(leftOut.map((p) => [p, readFileSync(join(vault, p), "utf8")]));

    const again = await runCli(["ingest", NOTE, "--vault", vault]);
    expect(again.code).toBe(0);
    expect(again.stdout).not.toContain("Already up to date");
    for (const path of leftOut) {
      expect(readFileSync(join(vault, path), "utf8")).not.toBe(before[path]);
      expect(again.stdout).toContain(path);
    }
    expect((await runCli(["ingest", NOTE, "--vault", vault])).stdout).toContain("Already up to date");
  });
});
