/** The packed term dictionary: lookups and merges agree with plain sorted string arrays. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DictionaryBuilder, TermDictionary } from "../../src/retrieval/term-dictionary";

const units = (text: string) => Uint16Array.from(text, (c) => c.charCodeAt(0));
const terms = fc.uniqueArray(fc.string({ minLength: 1, maxLength: 6, unit: fc.constantFrom("a", "b", "é", "z", "中", "1") }), { maxLength: 40 });

describe("TermDictionary", () => {
  it("finds every term it holds and no other, in the order of <", () => {
    fc.assert(
      fc.property(terms, terms, (held, probes) => {
        const sorted = [...held].sort();
        const dict = TermDictionary.from(sorted);
        expect(dict.size).toBe(sorted.length);
        expect(dict.wellFormed()).toBe(true);
        sorted.forEach((t, i) => expect(dict.term(i)).toBe(t));
        for (const p of [...held, ...probes]) expect(dict.find(p)).toBe(sorted.indexOf(p));
      }),
    );
  });

  it("finds every term of a large dictionary, where a look-up starts from a sample of the terms", () => {
    // Few letters, so many terms share their first two code units; a high code unit and a lone
    // surrogate, so keys near the top of the range order as strings do.
    const unit = fc.constantFrom("a", "b", "\uffff", "\ud800", "é", "中");
    const many = fc.uniqueArray(fc.string({ minLength: 1, maxLength: 5, unit }), { minLength: 60, maxLength: 1500 });
    fc.assert(
      fc.property(many, fc.array(fc.string({ minLength: 0, maxLength: 5, unit }), { maxLength: 50 }), (held, probes) => {
        const sorted = [...held].sort();
        const dict = TermDictionary.from(sorted);
        const at = new Map(sorted.map((t, i) => [t, i]));
        for (const p of [...sorted, ...probes]) expect(dict.find(p)).toBe(at.get(p) ?? -1);
      }),
      { numRuns: 60 },
    );
  });

  it("merges an old dictionary (some terms dropped) with new terms into the sorted union", () => {
    fc.assert(
      fc.property(terms, terms, fc.func(fc.boolean()), (oldTerms, newTerms, drop) => {
        const old = TermDictionary.from([...oldTerms].sort());
        const added = [...new Set(newTerms)].sort();
        const builder = new DictionaryBuilder(old);
        const expected = new Set<string>();
        let a = 0;
        let b = 0;
        while (a < old.size || b < added.length) {
          const tb = added[b];
          const cmp = a >= old.size ? 1 : tb === undefined ? -1 : old.compare(a, tb);
          const term = cmp <= 0 ? old.term(a) : (tb as string);
          if (cmp > 0 || cmp === 0 || !drop(term)) {
            if (cmp <= 0) builder.keepOld(a);
            else builder.add(term);
            expected.add(term);
          }
          if (cmp <= 0) a += 1;
          if (cmp >= 0) b += 1;
        }
        const merged = builder.build();
        expect(merged.wellFormed()).toBe(true);
        expect(Array.from({ length: merged.size }, (_, i) => merged.term(i))).toEqual([...expected].sort());
      }),
    );
  });

  it("keeps the order of < for terms beyond the BMP and with code units U+E000–U+FFFF", () => {
    // Surrogate pairs (U+D800–U+DFFF) sort below U+E000–U+FFFF as code units, above them as code
    // points: the dictionary must follow the code units, as `<` and the segments' sort do.
    const unit = fc.constantFrom("a", "中", "\ue000", "\uf8ff", "\ufb01", "\uffef", "\uffff", "😀", "𠀀", "𪛖", "\ud83d");
    const many = fc.uniqueArray(fc.string({ minLength: 1, maxLength: 4, unit }), { minLength: 1, maxLength: 400 });
    fc.assert(
      fc.property(many, fc.array(fc.string({ minLength: 0, maxLength: 4, unit }), { maxLength: 40 }), (held, probes) => {
        const sorted = [...held].sort();
        const dict = TermDictionary.from(sorted);
        sorted.forEach((t, i) => expect(dict.term(i)).toBe(t));
        for (const p of [...sorted, ...probes]) {
          const at = sorted.indexOf(p);
          expect(dict.find(p)).toBe(at);
          expect(dict.lowerBound(p)).toBe(sorted.filter((t) => t < p).length);
          for (let i = 0; i < sorted.length; i++) expect(Math.sign(dict.compare(i, p))).toBe(sorted[i] === p ? 0 : (sorted[i] as string) < p ? -1 : 1);
        }
      }),
      { numRuns: 60 },
    );
    expect(TermDictionary.from(["😀", "\uffff"].sort()).find("\uffff")).toBe(1);
  });

  it("refuses offsets that do not fit its units", () => {
    expect(new TermDictionary(units("ab\n"), Int32Array.of(0, 2)).wellFormed()).toBe(false);
    expect(new TermDictionary(units("ab\nc\n"), Int32Array.of(0, 3, 5)).wellFormed()).toBe(true);
    expect(new TermDictionary(units("ab\nc\n"), Int32Array.of(0, 3, 4)).wellFormed()).toBe(false);
    expect(new TermDictionary(units("ab\nc\n"), Int32Array.of(0, 3, 7)).wellFormed()).toBe(false);
  });
});
