import { describe, expect, it } from "vitest";
import type { StructuredAsk } from "../../src/core/provider";
import type { WikiPage } from "../../src/core/schemas";
import { DEFAULT_SETTINGS } from "../../src/settings/schema";
import { MemoryStateStore } from "../../src/vault/memory-state-store";
import { NodeVault } from "../../src/vault/node-vault";
import { ingestNote } from "../../src/wiki/ingest-note";
import { MATCH_VERDICTS_KEY } from "../../src/wiki/ingest/match-verdicts";
import type { ReviewHook } from "../../src/wiki/review";
import { ScriptedProvider, aPage } from "../builders";
import { makeVault, readVaultFile } from "../helpers/temp-vault";

const NOW = () => Date.UTC(2026, 11, 2, 12, 0);
const WAR = "A global war fought between the great powers of the world, with battles on land, at sea and in the air, and many millions dead.";

function entity(title: string, source: string, content = WAR): WikiPage {
  return aPage().ofType("entity").titled(title).withSources(source).withContent(`${title}: ${content}`).build();
}

/** A model that generates the scripted pages and answers the same-subject question, counting the questions. */
class ModelProvider extends ScriptedProvider {
  readonly asked: string[] = [];
  constructor(
    steps: WikiPage[][],
    private readonly same: boolean,
  ) {
    super(steps, { name: "fake", model: "fake-model" });
  }
  ask<T>(request: StructuredAsk<T>): Promise<T> {
    this.asked.push(request.user);
    return Promise.resolve(request.schema.parse({ same: this.same, reason: "Both are the same subject." }));
  }
}

async function ingest(root: string, provider: ScriptedProvider, state: MemoryStateStore, notePath: string, review?: ReviewHook) {
  return ingestNote(
    { vault: new NodeVault(root), provider, settings: structuredClone(DEFAULT_SETTINGS), state, now: NOW },
    { notePath, ...(review ? { review } : {}) },
  );
}

describe("different subjects stay on different pages", () => {
  for (const [backend, make] of [
    ["without a model", (steps: WikiPage[][]) => new ScriptedProvider(steps)],
    ["with a model that would say yes", (steps: WikiPage[][]) => new ModelProvider(steps, true)],
  ] as const) {
    it(`ingesting World War I then World War II gives two pages with their own names (${backend})`, async () => {
      const root = makeVault({ "notes/WWI.md": "# The Great War\n\n1914 to 1918.\n", "notes/WWII.md": "# The Second World War\n\n1939 to 1945.\n" });
      const provider = make([[entity("World War I", "notes/WWI.md")], [entity("World War II", "notes/WWII.md")]]);
      const state = new MemoryStateStore();
      await ingest(root, provider, state, "notes/WWI.md");
      const second = await ingest(root, provider, state, "notes/WWII.md");
      expect(second.pages).toEqual([{ path: "wiki/entities/World War II.md", type: "entity", title: "World War II", action: "created" }]);
      expect(readVaultFile(root, "wiki/entities/World War I.md")).not.toContain("World War II");
      expect(readVaultFile(root, "wiki/entities/World War II.md")).toContain("title: World War II");
      // A distinguishing mark is decided by rule: no model is asked about it.
      if (provider instanceof ModelProvider) expect(provider.asked).toEqual([]);
    });
  }
});

describe("a match by similarity is explained and can be refused", () => {
  const notes = { "notes/Cards.md": "# Cards\n\nLuhmann's cards.\n", "notes/Method.md": "# Method\n\nHow the cards are kept.\n" };
  const steps = () => [[entity("Zettelkasten", "notes/Cards.md")], [entity("Zettelkasten method", "notes/Method.md")]];

  it("says in the result that the page was added to the existing one as an alias, and why", async () => {
    const root = makeVault(notes);
    const provider = new ModelProvider(steps(), true);
    const state = new MemoryStateStore();
    await ingest(root, provider, state, "notes/Cards.md");
    const report = await ingest(root, provider, state, "notes/Method.md");
    expect(provider.asked).toHaveLength(1);
    expect(report.pages).toHaveLength(1);
    expect(report.pages[0]).toMatchObject({ path: "wiki/entities/Zettelkasten.md", action: "merged" });
    expect(report.pages[0]?.detail).toContain('Added to "Zettelkasten" as an alias because the model judged them the same subject');
    expect(readVaultFile(root, "wiki/entities/Zettelkasten.md")).toContain("- Zettelkasten method");
  });

  it("keeps the two apart at the next ingest when the review leaves the match out, without asking again", async () => {
    const root = makeVault(notes);
    const provider = new ModelProvider(steps(), true);
    const state = new MemoryStateStore();
    await ingest(root, provider, state, "notes/Cards.md");
    const offered: string[] = [];
    const refuse: ReviewHook = (plan) => {
      for (const c of plan.changes) if (c.match) offered.push(c.match.sentence);
      return Promise.resolve(plan.changes.filter((c) => !c.match).map((c) => c.path));
    };
    const refused = await ingest(root, provider, state, "notes/Method.md", refuse);
    expect(offered).toEqual(['Added to "Zettelkasten" as an alias because the model judged them the same subject: Both are the same subject.']);
    expect(refused.declined).toHaveLength(1);
    expect(await state.read(MATCH_VERDICTS_KEY)).toContain('"by":"user"');

    const again = await ingest(root, provider, state, "notes/Method.md");
    expect(again.pages).toEqual([{ path: "wiki/entities/Zettelkasten method.md", type: "entity", title: "Zettelkasten method", action: "created" }]);
    expect(provider.asked).toHaveLength(1);
    expect(readVaultFile(root, "wiki/entities/Zettelkasten.md")).not.toContain("Zettelkasten method");
  });
});
