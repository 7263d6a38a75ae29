/**
 * The plugin takes a note's links from Obsidian's metadata cache, the CLI from its own parser: both
 * must hand the index the same targets, as written (a folder kept, either Unicode spelling kept, the
 * heading, block and alias cut), so that the resolver alone decides where a link leads.
 */
import { App } from "obsidian-test-mocks/obsidian";
import { describe, expect, it } from "vitest";
import { linksFromCache } from "../../src/obsidian/cache-links";
import { parseNote } from "../../src/retrieval/chunker";
import { parseLinks } from "../../src/retrieval/links";

const NFC = "Caf\u00e9 cr\u00e8me";
const NFD = NFC.normalize("NFD");

const NOTE = [
  "# Linker",
  "",
  `Composed [[${NFC}]], decomposed [[${NFD}#Foam|the foam]], upper [[${NFC.toUpperCase()}]].`,
  "Folders: [[elsewhere/Diary]], [[private/Diary#^block]], [[./Diary]], [[../up/Diary|up]], [[/Diary]].",
  `Embeds: ![[notes/Diary.md]] and ![[${NFD}]]. Tag: #Coffee`,
  "",
].join("\n");

describe("links from the metadata cache and from the parser", () => {
  it("are the same targets, as written", async () => {
    const app = App.createConfigured__({ files: {} });
    const file = await app.vault.create("notes/Linker.md", NOTE);
    const cache = app.metadataCache.getFileCache(file);
    if (!cache) throw new Error("the mock did not parse the note");
    const fromCache = linksFromCache(cache);
    const parsed = parseLinks("notes/Linker.md", NOTE, parseNote("notes/Linker.md", NOTE));
    expect(fromCache.links).toEqual(parsed.links);
    expect(fromCache.embeds).toEqual(parsed.embeds);
    expect(fromCache.tags).toEqual(parsed.tags);
    expect(parsed.links).toEqual([NFC, NFD, NFC.toUpperCase(), "elsewhere/Diary", "private/Diary", "./Diary", "../up/Diary", "/Diary"]);
    expect(parsed.embeds).toEqual(["notes/Diary.md", NFD]);
  });
});
