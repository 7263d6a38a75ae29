/**
 * The validator contract. A generated batch is invalid if any page breaks a rule; each issue names
 * the page and the field in words a model can act on. Dangling wikilinks are recorded, not errors.
 */
import { isIso6391 } from "./iso639";
import { PAGE_TYPES, type WikiPage } from "./schemas";
import { problemForModel, problemForUser, type RefusedSource } from "./source-check";
import { canonicalSource, sourceKey } from "./sources";
import { cleanTitle, nameKey } from "./unicode";
import { linkBasename, wikilinkTargets } from "./wikilinks";

export type ValidatedField = "batch" | "type" | "title" | "frontmatter.sources" | "frontmatter.lang" | "content";

export interface ValidationIssue {
  /** Index of the page in the batch, or -1 for the batch as a whole. */
  readonly pageIndex: number;
  readonly field: ValidatedField;
  readonly message: string;
  /**
   * The same for the person reading the run's report: what went wrong, never the instruction the
   * model is given to fix it.
   */
  readonly forUser: string;
}

export interface DanglingLink {
  readonly page: string;
  readonly target: string;
}

export interface ValidationReport {
  readonly valid: boolean;
  readonly issues: readonly ValidationIssue[];
  readonly dangling: readonly DanglingLink[];
}

export interface ValidationOptions {
  /** Vault-relative path of the ingested note; every page must cite it. */
  readonly sourcePath: string;
  /** Does a page with this name already exist in the vault? Used only to record dangling links. */
  readonly linkExists?: (basename: string) => boolean;
  /** The sources each page cites that the vault refused (source-check.ts), by page index. */
  readonly refusedSources?: readonly (readonly RefusedSource[])[];
}

const TYPES: ReadonlySet<string> = new Set(PAGE_TYPES);

/** Normalises a cited path so `./notes/a.md`, `/notes/a.md`, `notes\a.md` and `[[notes/a]]` read the same. */
export function normaliseSourcePath(path: string): string {
  return canonicalSource(path);
}

export function validatePages(pages: readonly WikiPage[], options: ValidationOptions): ValidationReport {
  const issues: ValidationIssue[] = [];
  const source = normaliseSourcePath(options.sourcePath);
  if (pages.length === 0) {
    issues.push({
      pageIndex: -1,
      field: "batch",
      message: "The reply contains no pages; write at least a source page for the note.",
      forUser: "The model replied with no pages.",
    });
  }
  pages.forEach((page, index) => {
    const name = page.title.trim() ? `Page ${index + 1} ("${page.title.trim()}")` : `Page ${index + 1}`;
    // How the user knows the page: by its title, or by its place in the reply when it has none.
    const which = page.title.trim() ? `the page "${page.title.trim()}"` : `page ${index + 1}`;
    const add = (field: ValidatedField, message: string, forUser: string) => issues.push({ pageIndex: index, field, message: `${name}: ${message}`, forUser });
    if (!TYPES.has(page.type)) {
      add("type", `type "${page.type}" is not allowed; use one of ${PAGE_TYPES.join(", ")}.`, `The model gave ${which} the type "${page.type}", which is not a Synapse page type.`);
    }
    if (!page.title.trim()) add("title", "title is empty; give the page a short, specific title.", `The model left the title of ${which} empty.`);
    const sources = page.frontmatter.sources.map(sourceKey).filter((s) => s.length > 0);
    const uncited = `The model did not cite the note as a source of ${which}.`;
    if (sources.length === 0) {
      add("frontmatter.sources", `frontmatter.sources is empty; it must list "${source}".`, uncited);
    } else if (!sources.includes(sourceKey(source))) {
      add("frontmatter.sources", `frontmatter.sources does not include the ingested note; add "${source}" exactly as written.`, uncited);
    }
    for (const { source: cited, problem } of options.refusedSources?.[index] ?? []) {
      add(
        "frontmatter.sources",
        `frontmatter.sources lists "${cited}", which ${problemForModel(problem)}; cite "${source}" and only other notes of the vault you were shown.`,
        `The page "${page.title.trim()}" was refused because it cites "${cited}" as a source: ${problemForUser(problem)}.`,
      );
    }
    const lang = page.frontmatter.lang.trim();
    if (!lang) {
      add("frontmatter.lang", 'frontmatter.lang is empty; give the ISO 639-1 code of the page\'s language, such as "en".', `The model did not say which language ${which} is in.`);
    } else if (!isIso6391(lang)) {
      add(
        "frontmatter.lang",
        `frontmatter.lang "${lang}" is not a lowercase ISO 639-1 code; use two letters such as "en", "de" or "ja".`,
        `The model gave ${which} the language "${lang}", which is not a language code.`,
      );
    }
    if (!page.content.trim()) add("content", "content is empty; write the page body in Markdown.", `The model left ${which} without text.`);
  });
  return { valid: issues.length === 0, issues, dangling: findDangling(pages, options.linkExists) };
}

function findDangling(pages: readonly WikiPage[], linkExists?: (basename: string) => boolean): DanglingLink[] {
  const inBatch = new Set(pages.map((p) => nameKey(cleanTitle(p.title))));
  const dangling: DanglingLink[] = [];
  for (const page of pages) {
    for (const target of wikilinkTargets(page.content)) {
      const base = linkBasename(target);
      if (inBatch.has(nameKey(base)) || linkExists?.(base)) continue;
      dangling.push({ page: page.title, target });
    }
  }
  return dangling;
}

/** The feedback block appended to the generation context on a retry. */
export function describeIssuesForModel(issues: readonly ValidationIssue[]): string {
  return [
    "Your previous reply was rejected. Fix every problem below and return the whole batch again:",
    ...issues.map((issue) => `- ${issue.message}`),
  ].join("\n");
}
