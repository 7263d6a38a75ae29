import { cpSync } from "node:fs";
import { describe, it } from "vitest";
import { DEFAULT_SETTINGS } from "../../src/settings/schema";
import { OfflineProvider } from "../../src/providers/offline/offline-provider";
import { NodeVault } from "../../src/vault/node-vault";
import { ingestNote } from "../../src/wiki/ingest-note";
import { verifyApproved } from "../helpers/approval";
import { makeVault, snapshot } from "../helpers/temp-vault";

const EXAMPLES = new URL("../../examples/vault", import.meta.url).pathname;

describe("the example vault, ingested offline", () => {
  it.each([
    ["local-first", "Clippings/Local-first software.md"],
    ["zettelkasten", "Notes/Zettelkasten method.md"],
  ])("writes the approved wiki for %s", async (name, note) => {
    const root = makeVault();
    cpSync(EXAMPLES, root, { recursive: true });
    await ingestNote(
      { vault: new NodeVault(root), provider: new OfflineProvider(), settings: DEFAULT_SETTINGS, now: () => Date.UTC(2026, 10, 29, 9, 30) },
      { notePath: note },
    );
    const wiki = Object.entries(snapshot(root))
      .filter(([path]) => path.startsWith("wiki/"))
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([path, content]) => `<!-- ${path} -->\n${content}`)
      .join("\n");
    verifyApproved(`offline-${name}`, wiki);
  });
});
