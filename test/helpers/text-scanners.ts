/**
 * Every scanner of note, page and model text, by name, each run on one whole text, for
 * test/core/linear-scanning.test.ts to feed texts made to hurt them.
 */
import { codeRanges, maskCode, removeCode } from "../../src/core/code-spans";
import { headings, inlineTags, splitFrontmatter } from "../../src/core/markdown";
import { plainText } from "../../src/core/plain-text";
import { parseSimpleYaml } from "../../src/core/simple-yaml";
import { canonicalSource } from "../../src/core/sources";
import { cleanTag } from "../../src/core/tags";
import { cleanTitle, nameKey } from "../../src/core/unicode";
import { wikilinkTargets } from "../../src/core/wikilinks";
import { linksOutsideCode } from "../../src/lint/snapshot";
import { retargetLinks } from "../../src/lint/fixes";
import { comparedText } from "../../src/lint/term-vectors";
import { pageText } from "../../src/lint/pair-prompt";
import { extractJson, findJson, firstBalancedObject, stripThinking } from "../../src/core/json-repair";
import { scanObjects } from "../../src/core/json-scan";
import { extract } from "../../src/providers/offline/extract";
import { guessLanguage } from "../../src/providers/offline/language";
import { parseNote, searchableText } from "../../src/retrieval/chunker";
import { parseLinks, sourcesOf } from "../../src/retrieval/links";
import { makeSnippet } from "../../src/retrieval/snippet";
import { tokenize } from "../../src/core/tokenize";
import { markedSources, parseBody } from "../../src/wiki/provenance";
import { stripProvenance } from "../../src/core/provenance-strip";
import { rewriteLinks } from "../../src/wiki/ingest/plan-pages";

export type Scanner = (text: string) => unknown;

const tryParse = (scan: Scanner): Scanner => (text) => {
  try {
    return scan(text);
  } catch {
    return null; // a refusal is an answer; only a hang is not
  }
};

const page = (text: string) => ({ path: "wiki/p.md", title: "P", body: text, frontmatter: {} });

export const SCANNERS: Readonly<Record<string, Scanner>> = {
  codeRanges,
  maskCode,
  removeCode,
  wikilinkTargets,
  linksOutsideCode,
  splitFrontmatter,
  plainText,
  headings,
  inlineTags,
  parseSimpleYaml: tryParse(parseSimpleYaml),
  cleanTag,
  cleanTitle,
  nameKey,
  canonicalSource,
  tokenize,
  parseNote: (text) => parseNote("notes/n.md", text),
  searchableText: (text) => parseNote("notes/n.md", text).chunks.map((chunk) => searchableText(text, chunk).length),
  parseLinks: (text) => parseLinks("notes/n.md", text, parseNote("notes/n.md", text)),
  sourcesOf: (text) => sourcesOf({ ...parseNote("notes/n.md", text), sources: [text] }),
  makeSnippet: (text) => makeSnippet(text, ["a", "b"]),
  rewriteLinks: (text) => rewriteLinks(text, new Map([["a", "A file"]])),
  retargetLinks: (text) => retargetLinks(text, (target) => target === "a", "b"),
  parseBody,
  markedSources,
  stripProvenance,
  comparedText: (text) => comparedText(page(text)),
  pageText: (text) => pageText(page(text) as never),
  offlineExtract: (text) => extract("notes/n.md", text),
  guessLanguage,
  stripThinking,
  firstBalancedObject,
  findJson,
  extractJson: tryParse(extractJson),
  scanObjects,
};
