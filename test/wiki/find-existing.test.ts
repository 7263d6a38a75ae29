import { describe, expect, it } from "vitest";
import { findExistingPage, similarity, thresholdConfirm } from "../../src/wiki/ingest/find-existing";
import type { PageRecord } from "../../src/wiki/identity";
import { aPage } from "../builders";

const record = (title: string, extra: Partial<PageRecord> = {}): PageRecord => ({
  path: `wiki/concepts/${title}.md`,
  id: `sy-${title}`,
  type: "concept",
  title,
  aliases: [],
  locked: false,
  body: "",
  ...extra,
});

describe("finding the page that already exists", () => {
  it("matches a normalised title first, preferring the same type", async () => {
    const candidates = [record("Local first software", { type: "entity", path: "a.md" }), record("Local-First Software", { path: "b.md" })];
    const match = await findExistingPage(aPage().titled("local-first software").build(), candidates, thresholdConfirm);
    expect(match).toMatchObject({ reason: "title", record: { path: "b.md" } });
  });

  it("matches an existing page's alias, and the new page's aliases against existing titles", async () => {
    const vienna = record("Vienna", { aliases: ["Wien"] });
    expect(await findExistingPage(aPage().titled("Wien").build(), [vienna], thresholdConfirm)).toMatchObject({ reason: "alias" });
    const page = { ...aPage().titled("Viena").build(), aliases: ["Vienna"] };
    expect(await findExistingPage(page, [record("Vienna")], thresholdConfirm)).toMatchObject({ reason: "alias" });
  });

  it("confirms a close title by threshold: accents and plurals, not different numbers or names", async () => {
    expect(await findExistingPage(aPage().titled("CRDTs").build(), [record("CRDT")], thresholdConfirm)).toMatchObject({ reason: "similar" });
    expect(await findExistingPage(aPage().titled("Zettelkästen").build(), [record("Zettelkasten")], thresholdConfirm)).toMatchObject({ reason: "similar" });
    expect(await findExistingPage(aPage().titled("Python 3").build(), [record("Python 2")], thresholdConfirm)).toBeNull();
    expect(await findExistingPage(aPage().titled("Anne Smith").build(), [record("Anna Smith")], thresholdConfirm)).toBeNull();
    expect(await findExistingPage(aPage().titled("JavaScript").build(), [record("Java")], thresholdConfirm)).toBeNull();
  });

  it("asks the confirm step about the shortlist, best first, and takes its answer", async () => {
    const asked: string[] = [];
    const page = aPage().titled("Ada Lovelace").withContent("Ada Lovelace wrote the first program for the Analytical Engine.").build();
    const candidates = [record("Countess of Lovelace", { body: "Ada Lovelace wrote the first program for the Analytical Engine of Babbage." }), record("Unrelated")];
    const match = await findExistingPage(page, candidates, (_p, c) => {
      asked.push(c.title);
      return true;
    });
    expect(asked).toEqual(["Countess of Lovelace"]);
    expect(match).toMatchObject({ reason: "similar", record: { title: "Countess of Lovelace" } });
    expect(similarity(page, candidates[0] as PageRecord).content).toBeGreaterThan(0.5);
  });

  it("shortlists exactly the candidates whose title or content similarity reaches one half, however unequal the bodies", async () => {
    const body = (n: number, from = 0) => Array.from({ length: n }, (_, i) => `word${from + i}`).join(" ");
    const page = aPage().titled("Gossip protocols").withContent(body(40)).build();
    const candidates = [
      record("Epidemic dissemination", { body: body(20) }), // content exactly 0.5: on the list
      record("Rumour spreading", { body: body(19) }), // content just under: off
      record("Gossip protocol variants", { body: body(200, 1000) }), // close title, nothing shared
      record("Replica repair", { body: body(80) }), // content 0.5 from a larger body
      record("Consensus", { body: body(10) }),
    ];
    const asked: string[] = [];
    await findExistingPage(page, candidates, (_p, c) => {
      asked.push(c.title);
      return false;
    });
    const expected = candidates.filter((c) => {
      const s = similarity(page, c);
      return s.title >= 0.5 || s.content >= 0.5;
    });
    expect(asked.sort()).toEqual(expected.map((c) => c.title).sort());
    expect(asked.sort()).toEqual(["Epidemic dissemination", "Gossip protocol variants", "Replica repair"]);
  });
});
