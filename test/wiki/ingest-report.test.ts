/**
 * How an ingest's outcome is reported (src/wiki/ingest/report.ts): a failure after the loop
 * converged is an error whatever the loop said, and keeps the loop's attempts; a failure before
 * any model call has none.
 */
import { describe, expect, it } from "vitest";
import { SynapseError } from "../../src/core/errors";
import { DEFAULT_SETTINGS } from "../../src/settings/schema";
import { MemoryVault } from "../../src/vault/memory-vault";
import { ingestNote } from "../../src/wiki/ingest-note";
import { SOURCE_PATH, ScriptedProvider, aPage } from "../builders";

const NOTE = "# Source note\n\nA note about the Example concept, written for tests.\n";
const page = () => aPage().titled("Example concept").withContent("Examples explain things. See [[Source note]].").build();

/** A vault that refuses every new file: the ingest fails while writing. */
class FullVault extends MemoryVault {
  override create(): Promise<void> {
    return Promise.reject(new SynapseError("vault", "The disk is full."));
  }
}

describe("an ingest's report", () => {
  it("says error, with the loop's attempts and no pages, when writing fails after the pages converged", async () => {
    const report = await ingestNote({ vault: new FullVault({ [SOURCE_PATH]: NOTE }), provider: new ScriptedProvider([[page()]]), settings: structuredClone(DEFAULT_SETTINGS) }, { notePath: SOURCE_PATH });
    expect(report).toMatchObject({ converged: false, stopReason: "error", attempts: { analyze: 1, generate: 1 }, pages: [], upToDate: null, error: { kind: "vault" } });
  });

  it("says error with no attempts when the perimeter refuses the note before any call", async () => {
    const provider = new ScriptedProvider([[page()]]);
    const report = await ingestNote({ vault: new MemoryVault({ [SOURCE_PATH]: NOTE }), provider, settings: { ...structuredClone(DEFAULT_SETTINGS), excludedFolders: ["notes"] } }, { notePath: SOURCE_PATH });
    expect(report).toMatchObject({ converged: false, stopReason: "error", attempts: { analyze: 0, generate: 0 }, error: { kind: "perimeter" } });
    expect(provider.analyzeCalls).toEqual([]);
  });
});
