import fc from "fast-check";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { describeDistinction, distinction } from "../../src/wiki/distinguishing-marks";
import { findExistingPage, thresholdConfirm } from "../../src/wiki/ingest/find-existing";
import type { PageRecord } from "../../src/wiki/identity";
import { aPage } from "../builders";

interface Kind {
  readonly kind: string;
  readonly pairs: readonly (readonly [string, string])[];
}

const FIXTURE = resolve(import.meta.dirname, "../fixtures/titles/distinct-subjects.json");
const KINDS = (JSON.parse(readFileSync(FIXTURE, "utf8")) as { kinds: Kind[] }).kinds;
const PAIRS = KINDS.flatMap((k) => k.pairs.map(([a, b]) => ({ kind: k.kind, a, b })));

/** The same text on both pages: content similarity is as high as it gets. */
const BODY = "It is described in detail here, with its history, its causes and its consequences for the people involved.";

const record = (title: string, extra: Partial<PageRecord> = {}): PageRecord => ({
  path: `wiki/concepts/${title.replace(/[/\\#]/g, " ")}.md`,
  id: `sy-${title}`,
  type: "concept",
  title,
  aliases: [],
  locked: false,
  body: BODY,
  ...extra,
});

const pageTitled = (title: string) => aPage().titled(title).withContent(BODY).build();

/** Ways a model writes the same title that change no mark: case, a leading article, a shared qualifier. */
const dressing = fc.constantFrom<(t: string) => string>(
  (t) => t,
  (t) => t.toUpperCase(),
  (t) => `The ${t}`,
  (t) => `${t} (history)`,
  (t) => t.replace(/^./u, (c) => c.toLowerCase()),
);

describe("distinguishing marks", () => {
  it("the held list has at least 40 kinds of different-subject pairs", () => {
    expect(KINDS.length).toBeGreaterThanOrEqual(40);
    for (const { a, b } of PAIRS) expect(distinction(a, b), `${a} / ${b}`).not.toBeNull();
  });

  it("never makes one page of two different subjects, even when the confirm step says yes", async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...PAIRS), dressing, fc.boolean(), async ({ a, b }, dress, swap) => {
        const [mine, theirs] = swap ? [dress(b), dress(a)] : [dress(a), dress(b)];
        const yes = () => true;
        expect(await findExistingPage(pageTitled(mine), [record(theirs)], yes)).toBeNull();
        expect(await findExistingPage(pageTitled(mine), [record(theirs)], thresholdConfirm)).toBeNull();
      }),
      { numRuns: 300 },
    );
  });

  it("says which mark differs, in a sentence", () => {
    const found = distinction("World War I", "World War II");
    expect(found).toEqual({ kind: "number", first: "I", second: "II" });
    expect(describeDistinction("World War I", "World War II", found ?? { kind: "number", first: "", second: "" })).toBe(
      '"World War I" and "World War II" differ in a number (I, II), so they are different subjects.',
    );
    expect(distinction("Erbium", "Terbium")).toMatchObject({ kind: "element" });
    expect(distinction("Vitamin A", "Vitamin B")).toMatchObject({ kind: "letter", first: "A", second: "B" });
  });

  it("reads one number however it is written, so spelling alone marks nothing", () => {
    expect(distinction("World War One", "World War I")).toBeNull();
    expect(distinction("Henry the Eighth", "Henry VIII")).toBeNull();
    expect(distinction("Second Amendment", "2nd Amendment")).toBeNull();
    expect(distinction("Python 3.0", "Python 3")).toBeNull();
  });

  it("takes ordinary words for words: 'Mix', 'Did', 'Xi' and a capitalised title are no numerals", () => {
    expect(distinction("The Mix", "Mix")).toBeNull();
    expect(distinction("WORLD WAR II", "World War 2")).toBeNull();
    expect(distinction("Men's health", "Mens health")).toBeNull();
    expect(distinction("U.S.A.", "USA")).toBeNull();
  });
});

/** Subjects without marks, and ways of writing each that name the same subject. */
const BASES = ["Jet stream", "Local-first software", "Zettelkasten", "Ada Lovelace", "Photosynthesis", "Beatle", "Cafe culture", "Smart phone", "Conflict-free replicated data type", "Rainforest"];
const ACCENTED: Readonly<Record<string, string>> = { a: "á", e: "é", o: "ö", u: "ü", i: "í" };
const SAME_SUBJECT: readonly ((t: string) => string)[] = [
  (t) => t.toLowerCase(),
  (t) => t.toUpperCase(),
  (t) => `${t}s`,
  (t) => t.replace(/[aeiou]/u, (v) => ACCENTED[v] ?? v),
  (t) => t.replace(/-/g, " "),
  (t) => (t.includes(" ") ? t.replace(" ", "-") : t),
  (t) => t.replace(/ /g, ""),
];
/** Each change at most once, in any order. */
const sameSubject = fc.shuffledSubarray([...SAME_SUBJECT], { maxLength: 3 });

describe("true duplicates still merge", () => {
  it("accents, plurals, case, a leading 'The', hyphenation and spacing make the same page", async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...BASES), sameSubject, fc.boolean(), async (base, changes, article) => {
        const changed = changes.reduce((t, change) => change(t), base);
        const written = article ? `The ${changed}` : changed;
        fc.pre(written !== base);
        expect(distinction(written, base)).toBeNull();
        const match = await findExistingPage(pageTitled(written), [record(base)], thresholdConfirm);
        expect(match?.record.title).toBe(base);
        expect(match?.reason).toMatch(/^(?:title|similar)$/);
      }),
      { numRuns: 300 },
    );
  });

  it("keeps the cases the property runs found: a word glued on, a plural in -es", async () => {
    for (const [written, base] of [["Local-firstsoftware", "Local-first software"], ["Cafecultures", "Cafe culture"], ["Local-firstsoftwares", "Local-first software"]] as const) {
      expect(distinction(written, base)).toBeNull();
      expect(await findExistingPage(pageTitled(written), [record(base)], thresholdConfirm)).toMatchObject({ reason: "similar" });
    }
  });

  it("an alias the model gives joins the pages, even across a mark", async () => {
    const page = { ...pageTitled("WWII"), aliases: ["World War II"] };
    const match = await findExistingPage(page, [record("World War II"), record("World War I")], thresholdConfirm);
    expect(match).toMatchObject({ reason: "alias", record: { title: "World War II" } });
    expect(match?.because).toContain("another name");
  });
});
