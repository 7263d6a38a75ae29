import { describe, expect, it } from "vitest";
import { createRunContext } from "../../src/core/run-context";
import type { WikiPage } from "../../src/core/schemas";
import { OfflineProvider } from "../../src/providers/offline/offline-provider";
import { corpusNotes } from "../helpers/corpus";
import { fixtureLanguages, fixtureNote, fixtureNotes } from "../helpers/fixture-notes";
import { describeWithCorpus } from "../helpers/with-corpus";

async function offlinePages(path: string, text: string): Promise<WikiPage[]> {
  const provider = new OfflineProvider();
  const run = createRunContext({ source: { path, text } });
  return provider.generate({ analysis: await provider.analyze(text, "", run), note: text, related: "" }, run);
}

/** Every fixed English phrase an Offline page used to carry. */
const ENGLISH_BOILERPLATE = /Extracted without a language model|Offline provider built|## (Summary|Outline|Key terms|Also linked|Mentioned in)\b|\bappears in\b|\bis mentioned\b|\btimes\)|\(once\)/;

describe("Offline pages in the note's language", () => {
  it.each(fixtureLanguages().filter((language) => language !== "en"))("carry no English sentence or heading for the fixture notes in %s", async (language) => {
    for (const note of fixtureNotes(language)) {
      for (const page of await offlinePages(note.path, note.text)) {
        expect(page.content, `${note.path} → ${page.title}`).not.toMatch(ENGLISH_BOILERPLATE);
      }
    }
  });

  it("localises the headings of a German note", async () => {
    const note = fixtureNote("de/Verknüpfen/Interne Links.md");
    const [source, ...terms] = await offlinePages(note.path, note.text);
    expect(source?.frontmatter.lang).toBe("de");
    expect(source?.content).toContain("> [!info] Ohne Sprachmodell extrahiert");
    expect(source?.content).toContain("## Zusammenfassung");
    expect(source?.content).toContain("## Gliederung");
    expect(terms.length).toBeGreaterThan(0);
    for (const term of terms) expect(term.content).toMatch(/^## Erwähnt in\n\n- \[\[Interne Links\]\]/);
  });

  it("localises the headings of a Japanese note", async () => {
    const note = fixtureNote("ja/Obsidianファイルのバックアップ.md");
    const [source] = await offlinePages(note.path, note.text);
    expect(source?.frontmatter.lang).toBe("ja");
    expect(source?.content).toContain("## 要約");
    expect(source?.content).toContain("## アウトライン");
  });

  it("keeps structure without prose for a language it has no words for", async () => {
    const note = fixtureNote("th/การสร้างลิงก์.md");
    const [source] = await offlinePages(note.path, note.text);
    expect(source?.frontmatter.lang).toBe("th");
    expect(source?.content).toMatch(/^> \[!info\] Synapse · Offline\n> \[\[/);
    expect(source?.content).not.toMatch(/^## /m);
  });

  it("copies no block ids from the note", async () => {
    for (const path of ["de/Verknüpfen/Interne Links.md", "ja/内部リンク.md", "en/Linking/Internal links.md"]) {
      const note = fixtureNote(path);
      for (const page of await offlinePages(note.path, note.text)) {
        expect(page.content, `${path} → ${page.title}`).not.toMatch(/\^?\b(b15695|c0ffee|a1b2c3|37066d)\b|\s\^[A-Za-z0-9-]+$/m);
      }
    }
    const footnoted = "# Footnotes\n\nA claim that needs a source, with a reference.[^1] More prose follows here. ^abc123\n\n[^1]: The source.";
    const [page] = await offlinePages("notes/f.md", footnoted);
    expect(page?.content).not.toMatch(/abc123|\[\^1\]|\b1\]/);
  });

  it("writes no counts, so no plural can be wrong", async () => {
    for (const note of [...fixtureNotes("en"), ...fixtureNotes("de")]) {
      for (const page of await offlinePages(note.path, note.text)) {
        expect(page.content, `${note.path} → ${page.title}`).not.toMatch(/\b\d+ (times|Mal)\b|\(once\)/);
      }
    }
  });

  it("files neither formatting examples nor common words as entities", async () => {
    const english = fixtureNote("en/Linking/Internal links.md");
    const englishTitles = (await offlinePages(english.path, english.text)).map((p) => p.title);
    // "`[[Example]]` displays as [[Example]]": the link and its display texts demonstrate syntax.
    for (const demo of ["Example", "Custom name", "Section", "Section name", "Details"]) expect(englishTitles).not.toContain(demo);

    const german = fixtureNote("de/Verknüpfen/Interne Links.md");
    const germanTitles = (await offlinePages(german.path, german.text)).map((p) => p.title);
    // German capitalises every noun ("Notiz", "Vault"); "Zum Beispiel" is "for example".
    for (const common of ["Beispiel", "Zum Beispiel", "Benutzerdefinierter Name", "Notiz", "Vault"]) expect(germanTitles).not.toContain(common);

    const plurals = "# Gardening\n\nNotes on the garden. I keep notes every week.\n\nThe Rose Society says Notes matter. Roses need Notes and water; Jane Austen grew roses and Jane Austen wrote about them.";
    const titles = (await offlinePages("g.md", plurals)).map((p) => p.title);
    expect(titles).toContain("Jane Austen");
    expect(titles).not.toContain("Notes");
  });
});

// Over many real notes per language: the large corpus (skipped where it is absent).
describeWithCorpus("Offline pages in the note's language, on the corpus", () => {
  it.each(["de", "fr", "es", "ja", "zh", "ru", "ko", "th", "ar", "he"])("carry no English sentence or heading for real %s notes", async (language) => {
    const notes = corpusNotes(language, 25);
    expect(notes.length).toBeGreaterThan(10);
    for (const note of notes) {
      for (const page of await offlinePages(note.path, note.text)) {
        expect(page.content, `${note.path} → ${page.title}`).not.toMatch(ENGLISH_BOILERPLATE);
      }
    }
  });

  it("write no counts for real notes", async () => {
    for (const note of [...corpusNotes("en", 40), ...corpusNotes("de", 20)]) {
      for (const page of await offlinePages(note.path, note.text)) {
        expect(page.content, `${note.path} → ${page.title}`).not.toMatch(/\b\d+ (times|Mal)\b|\(once\)/);
      }
    }
  });
});
