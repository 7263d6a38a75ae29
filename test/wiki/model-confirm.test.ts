import { describe, expect, it } from "vitest";
import { SynapseError } from "../../src/core/errors";
import type { StructuredAsk } from "../../src/core/provider";
import { createRunContext } from "../../src/core/run-context";
import { MemoryStateStore } from "../../src/vault/memory-state-store";
import type { PageRecord } from "../../src/wiki/identity";
import { MATCH_VERDICTS_KEY, MatchVerdicts } from "../../src/wiki/ingest/match-verdicts";
import { modelConfirm, SameSubjectReplySchema } from "../../src/wiki/ingest/model-confirm";
import { ScriptedProvider, aPage } from "../builders";

const record = (title: string, body = "A way of keeping notes in small linked cards."): PageRecord => ({
  path: `wiki/concepts/${title}.md`,
  id: `sy-${title}`,
  type: "concept",
  title,
  aliases: [],
  locked: false,
  body,
});

/** A model that answers the same-subject question with `reply`, counting the questions. */
class AskingProvider extends ScriptedProvider {
  readonly asked: StructuredAsk<unknown>[] = [];
  constructor(private readonly reply: () => unknown) {
    super([[]], { model: "fake-model" });
  }
  ask<T>(request: StructuredAsk<T>): Promise<T> {
    this.asked.push(request);
    const parsed = request.schema.safeParse(this.reply());
    if (!parsed.success) return Promise.reject(new SynapseError("schema", "The reply did not hold the same-subject verdict."));
    return Promise.resolve(parsed.data);
  }
}

const similar = { title: 0.8, content: 0.6 };
const page = aPage().titled("Zettelkasten method").withContent("A way of keeping notes in small linked cards, by Niklas Luhmann.").build();

describe("the model confirms an ambiguous match", () => {
  it("asks once per pair, with both titles and openings, and keeps the verdict in the state folder", async () => {
    const store = new MemoryStateStore();
    const provider = new AskingProvider(() => ({ same: true, reason: "Both describe Luhmann's card index." }));
    const run = createRunContext();
    const first = await MatchVerdicts.load(store);
    const confirm = modelConfirm({ provider, run, verdicts: first });
    expect(await confirm(page, record("Zettelkasten"), similar)).toEqual({ same: true, reason: "the model judged them the same subject: Both describe Luhmann's card index" });
    expect(await confirm(page, record("Zettelkasten"), similar)).toMatchObject({ same: true });
    expect(provider.asked).toHaveLength(1);
    expect(provider.asked[0]?.user).toContain('Page A: "Zettelkasten method"');
    expect(provider.asked[0]?.user).toContain('Page B: "Zettelkasten"');
    expect(provider.asked[0]?.user).toContain("small linked cards");
    await first.save();
    expect(await store.read(MATCH_VERDICTS_KEY)).toContain('"by":"model"');

    // The next ingest reads the verdict and asks nothing, in either order of the titles.
    const again = modelConfirm({ provider, run, verdicts: await MatchVerdicts.load(store) });
    expect(await again(aPage().titled("Zettelkasten").build(), record("Zettelkasten method"), similar)).toMatchObject({ same: true });
    expect(provider.asked).toHaveLength(1);
  });

  it("reads an unreadable reply as 'not the same' and does not keep it", async () => {
    const provider = new AskingProvider(() => ({ reason: "forgot the answer" }));
    const verdicts = MatchVerdicts.inMemory();
    const confirm = modelConfirm({ provider, run: createRunContext(), verdicts });
    expect(await confirm(page, record("Zettelkasten"), similar)).toBe(false);
    expect(verdicts.get(page.title, "Zettelkasten")).toBeUndefined();
    expect(await confirm(page, record("Zettelkasten"), similar)).toBe(false);
    expect(provider.asked).toHaveLength(2);
  });

  it("holds the reply to a schema whose answer has no default", () => {
    expect(SameSubjectReplySchema.safeParse({}).success).toBe(false);
    expect(SameSubjectReplySchema.safeParse({ same: "yes" }).success).toBe(false);
    expect(SameSubjectReplySchema.safeParse({ same: false }).success).toBe(true);
  });

  it("never asks about titles that differ only in accents, case or plural, nor about a pair the user kept apart", async () => {
    const provider = new AskingProvider(() => ({ same: true }));
    const verdicts = MatchVerdicts.inMemory();
    verdicts.refuse({ newTitle: "Zettelkasten method", existingTitle: "Zettelkasten", reason: "similar", sentence: "" });
    const confirm = modelConfirm({ provider, run: createRunContext(), verdicts });
    expect(await confirm(aPage().titled("Zettelkästen").build(), record("Zettelkasten"), similar)).toBe(true);
    expect(await confirm(page, record("Zettelkasten"), similar)).toMatchObject({ same: false });
    // A model's later verdict does not undo the user's.
    verdicts.set(page.title, "Zettelkasten", { same: true, by: "model", reason: "" });
    expect(verdicts.keptApart(page.title, "Zettelkasten")).toBe(true);
    expect(provider.asked).toHaveLength(0);
  });

  it("stops on a cancel instead of reading it as an answer", async () => {
    const controller = new AbortController();
    const provider = new AskingProvider(() => {
      controller.abort();
      throw new SynapseError("cancelled", "The run was cancelled.");
    });
    const confirm = modelConfirm({ provider, run: createRunContext({ signal: controller.signal }), verdicts: MatchVerdicts.inMemory() });
    await expect(confirm(page, record("Zettelkasten"), similar)).rejects.toMatchObject({ kind: "cancelled" });
  });
});
