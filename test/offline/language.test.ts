import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { guessLanguage } from "../../src/providers/offline/language";
import { CORPUS, corpusNotes } from "../helpers/corpus";
import { describeWithCorpus } from "../helpers/with-corpus";

describe("the Offline provider's language guess on short texts", () => {
  it.each([
    ["東京タワー", "ja"],
    ["ひらがな", "ja"],
    ["日本語のメモ", "ja"],
    ["知识图谱", "zh"],
    ["双向链接笔记", "zh"],
    ["한국어 메모", "ko"],
    ["지식 그래프", "ko"],
    ["Привет", "ru"],
    ["Заметки о графе", "ru"],
    ["Нотатки і граф", "uk"],
    ["Зусім іншая мова: ў", "be"],
    ["Ћирилица и ђак", "sr"],
    ["مرحبا بالعالم", "ar"],
    ["یادداشت‌های من", "fa"],
    ["میری کتاب اچھی ہے", "ur"],
    ["สวัสดีครับ", "th"],
    ["नमस्ते दुनिया", "hi"],
    ["বাংলা নোট", "bn"],
    ["שלום עולם", "he"],
    ["Γειά σου κόσμε", "el"],
    ["გამარჯობა", "ka"],
    ["Բարեւ աշխարհ", "hy"],
    ["வணக்கம்", "ta"],
    ["សួស្តី", "km"],
  ])("reports %s as %s, not English", (text, code) => {
    expect(guessLanguage(text)).toBe(code);
  });

  it("keeps the fallback for short Latin-script texts it cannot tell", () => {
    expect(guessLanguage("Graph view")).toBe("en");
    expect(guessLanguage("Graph view", "de")).toBe("de");
    expect(guessLanguage("")).toBe("en");
    expect(guessLanguage("1234 — 5678")).toBe("en");
  });

  it("reads a short Japanese title followed by Latin product names as Japanese", () => {
    expect(guessLanguage("Obsidian の Canvas と Graph view の使い方")).toBe("ja");
  });

  it("strips code, URLs and frontmatter before guessing", () => {
    const note = [
      "---",
      "title: A note about the setup",
      "tags: [english, words, here]",
      "---",
      "```python",
      "def read_the_configuration_file(path):",
      "    # Open the file and return every line that is not a comment or blank",
      "    return [line for line in open(path) if line.strip() and not line.startswith('#')]",
      "```",
      "",
      "設定ファイルを読む関数です。`open_the_file_and_return_lines` を参照。",
      "https://example.com/documentation/reading-configuration-files-in-python",
    ].join("\n");
    expect(guessLanguage(note)).toBe("ja");
  });

  it("decides any text whose letters are mostly of one script by that script", () => {
    const scripts: [string, string][] = [
      ["あいうえおかきくけこアイウエオ", "ja"],
      ["한국어지식그래프노트", "ko"],
      ["中文知识图谱笔记双向链接", "zh"],
      ["กขคงจฉชซฌญ", "th"],
      ["אבגדהוזחטיכלמנ", "he"],
      ["αβγδεζηθικλμνξ", "el"],
      ["абвгдежзиклмнопрст", "ru"],
      ["अआइईउऊएऐओऔकखगघ", "hi"],
    ];
    fc.assert(
      fc.property(
        fc.constantFrom(...scripts),
        fc.array(fc.nat(), { minLength: 1, maxLength: 30 }),
        fc.constantFrom("", " ", "、", ". ", "1", " - "),
        ([alphabet, code], picks, separator) => {
          const letters = [...alphabet];
          const words = picks.map((p) => letters[p % letters.length] ?? "").join(separator);
          expect(guessLanguage(words)).toBe(code);
        },
      ),
    );
  });
});

describeWithCorpus("the Offline provider's language guess on the corpus", () => {
  // Obsidian's help in 32 languages; pt-br and zh-TW are Portuguese and Chinese.
  const expected = (folder: string) => (folder === "pt-br" ? "pt" : folder === "zh-TW" ? "zh" : folder);
  const folders = readdirSync(CORPUS).filter((name) => /^[a-z]{2}(-[a-zA-Z]{2})?$/.test(name) && statSync(join(CORPUS, name)).isDirectory());

  // Every fifth note (about 1,200 in 32 languages) keeps the test short; bench/RESULTS.md's figure is
  // the same measure over every note. No speed is asserted: the timeout only has to outlast a busy machine.
  it("is right on at least 99 % of every fifth note across all languages", { timeout: 300_000 }, () => {
    let total = 0;
    let right = 0;
    for (const folder of folders) {
      corpusNotes(folder).forEach((note, index) => {
        if (index % 5 !== 0) return;
        total++;
        if (guessLanguage(note.text) === expected(folder)) right++;
      });
    }
    expect(folders.length).toBeGreaterThanOrEqual(30);
    expect(right / total).toBeGreaterThanOrEqual(0.99);
  });
});
