/**
 * A part of a Chinese or Japanese compound finds the note with the compound: 喫茶 finds 喫茶店,
 * though the segmenter keeps 喫茶店 whole. Checked on a small vault and on the corpus's Japanese and
 * Chinese notes (a compound's first two characters find its note).
 */
import { describe, expect, it } from "vitest";
import { queryTerms, withCompoundParts } from "../../src/retrieval/compound-grams";
import { tokenize } from "../../src/core/tokenize";
import { corpusNotes } from "../helpers/corpus";
import { itWithCorpus } from "../helpers/with-corpus";
import { aVault, indexed } from "./index-builder";

const HAN = /^\p{Script=Han}+$/u;

describe("parts of compounds", () => {
  it("adds the bigrams of words with Han longer than two characters, and only theirs", () => {
    expect(withCompoundParts(["喫茶店", "東京", "食べ物", "データベース", "cafe", "ガラス", "𠮷野家"])).toEqual([
      "喫茶店", "喫茶", "茶店", "東京", "食べ物", "食べ", "べ物", "データベース", "cafe", "ガラス", "𠮷野家", "𠮷野", "野家",
    ]);
    expect(queryTerms("喫茶 and Tokyo", tokenize("喫茶 and Tokyo"))).toEqual(["喫茶", "and", "tokyo"]);
    expect(queryTerms("喫茶店", tokenize("喫茶店"))).toEqual(["喫茶店", "喫茶", "茶店"]);
    // Words of kana alone stay whole: ガラス (glass) shares the bigram ラス with カラス (crow).
    expect(queryTerms("ｶﾞﾗｽ", tokenize("ｶﾞﾗｽ"))).toEqual(["ガラス"]);
  });

  it("finds a note by a part of its compound, and bolds the part in the snippet", async () => {
    const vault = aVault({
      "notes/cafe.md": "# 午後\n\n駅前の喫茶店でコーヒーを飲んだ。\n",
      "notes/library.md": "# 週末\n\n市立図書館で本を借りた。\n",
      "notes/other.md": "# 天気\n\n今日は晴れです。\n",
    });
    const index = await indexed(vault);
    const hits = await index.retrieve("喫茶", { scope: { kind: "all" }, limit: 5 });
    expect(hits.map((h) => h.path)).toEqual(["notes/cafe.md"]);
    expect(hits[0]?.snippet).toContain("**喫茶**");
    expect((await index.retrieve("図書", { scope: { kind: "all" }, limit: 5 })).map((h) => h.path)).toEqual(["notes/library.md"]);
    // The whole compound still finds its note first.
    expect((await index.retrieve("喫茶店", { scope: { kind: "all" }, limit: 5 }))[0]?.path).toBe("notes/cafe.md");
  });

  itWithCorpus("finds corpus notes (ja, zh) by the first two characters of their Han compounds", async () => {
    const files: Record<string, string> = {};
    for (const language of ["ja", "zh"]) for (const note of corpusNotes(language, 40)) files[`${language}/${note.path}`] = note.text;
    const index = await indexed(aVault(files));
    const checked: string[] = [];
    const missed: string[] = [];
    for (const [path, text] of Object.entries(files)) {
      const compounds = [...new Set(tokenize(text))].filter((w) => HAN.test(w) && [...w].length > 2).slice(0, 3);
      for (const compound of compounds) {
        const part = [...compound].slice(0, 2).join("");
        checked.push(part);
        const found = new Set(index.text.search(queryTerms(part, tokenize(part)), 1000, () => true).map((h) => h.path));
        if (!found.has(path)) missed.push(`${part} (of ${compound}) in ${path}`);
      }
    }
    expect(checked.length).toBeGreaterThan(60);
    expect(missed).toEqual([]);
  });
});
