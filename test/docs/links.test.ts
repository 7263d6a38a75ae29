/**
 * The documentation points at things that exist: every relative link in README.md, CONTRIBUTING.md,
 * CHANGELOG.md and docs/ leads to a file (and to a heading of it, when it names one), and every
 * `src/…`, `test/…`, `bench/…` or `scripts/…` path the contributor pages name in code is in the repository.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { headingAnchors, inlineCode, markdownFiles, markdownLinks, pathExists, resolveLink } from "./doc-references";

const ROOT = join(import.meta.dirname, "../..");
const PAGES = ["README.md", "CONTRIBUTING.md", "CHANGELOG.md", ...markdownFiles(ROOT, "docs")];
const read = (file: string) => readFileSync(join(ROOT, file), "utf8");

/** What is wrong with each link of `file`, as `file:line → target (why)`. */
function brokenLinks(file: string): string[] {
  return markdownLinks(read(file)).flatMap(({ target, line }) => {
    const { file: to, anchor } = resolveLink(file, target);
    const where = `${file}:${line} → ${target}`;
    if (!existsSync(join(ROOT, to))) return [`${where} (no such file)`];
    if (anchor === null) return [];
    if (!to.endsWith(".md") || statSync(join(ROOT, to)).isDirectory()) return [];
    return headingAnchors(read(to)).has(anchor) ? [] : [`${where} (no heading with that anchor)`];
  });
}

/** The repository paths a contributor page names in inline code that are not there. */
function missingPaths(file: string): string[] {
  return inlineCode(read(file))
    .filter(({ target }) => /^(src|test|bench|scripts)\/\S*$/.test(target))
    .filter(({ target }) => !pathExists(ROOT, target.replace(/:\d+(-\d+)?$/, "")))
    .map(({ target, line }) => `${file}:${line} → ${target}`);
}

describe("links in the documentation", () => {
  it("reads the pages it is meant to", () => {
    expect(PAGES).toEqual(expect.arrayContaining(["docs/contributing/architecture.md", "docs/guide/index.md", "docs/decisions/index.md"]));
  });

  it.each(PAGES)("%s links only to files and headings that exist", (file) => {
    expect(brokenLinks(file)).toEqual([]);
  });

  it.each(PAGES.filter((file) => file.startsWith("docs/contributing/")))("%s names only repository paths that exist", (file) => {
    expect(missingPaths(file)).toEqual([]);
  });
});

describe("the link reader", () => {
  const page = [
    "# A page",
    "",
    "See [the guide](guide.md#set-up), ![a picture](images/a.png), [a site](https://example.org),",
    "[here](#a-page) and `[not a link](code.md)`. Paths: `src/core/errors.ts`, `src/nowhere.ts`.",
    "",
    "```",
    "[also not a link](fence.md)",
    "```",
    "",
    "[ref]: ./other.md",
    "## `index.ts` and *more*",
  ].join("\n");

  it("finds inline links, images and references, not links inside code or to other sites", () => {
    expect(markdownLinks(page).map((link) => link.target)).toEqual(["guide.md#set-up", "images/a.png", "#a-page", "./other.md"]);
  });

  it("finds the paths named in inline code, with their lines", () => {
    expect(inlineCode(page).filter(({ target }) => target.startsWith("src/"))).toEqual([
      { target: "src/core/errors.ts", line: 4 },
      { target: "src/nowhere.ts", line: 4 },
    ]);
  });

  it("gives headings GitHub's anchors", () => {
    expect([...headingAnchors(page)]).toEqual(["a-page", "indexts-and-more"]);
  });

  it("tells a path that exists from one that does not, patterns included", () => {
    expect(pathExists(ROOT, "src/core/errors.ts")).toBe(true);
    expect(pathExists(ROOT, "src/nowhere.ts")).toBe(false);
    expect(pathExists(ROOT, "src/vault/node-*.ts")).toBe(true);
    expect(pathExists(ROOT, "src/providers/<name>/sdk.ts")).toBe(true);
    expect(pathExists(ROOT, "src/providers/<name>/nowhere.ts")).toBe(false);
    expect(pathExists(ROOT, "test/fixtures/notes/<language>/…")).toBe(true);
  });

  it("resolves a link from the page's folder, keeping the anchor", () => {
    expect(resolveLink("docs/guide/ask.md", "../contributing/retrieval.md#the-door")).toEqual({ file: "docs/contributing/retrieval.md", anchor: "the-door" });
    expect(resolveLink("docs/guide/ask.md", "#asking")).toEqual({ file: "docs/guide/ask.md", anchor: "asking" });
  });
});
