/**
 * One read of the wiki for the exact checks: every page's frontmatter, title, aliases, type,
 * sources and outgoing links (links inside code are not links), and the names of every note in the
 * vault, so links and sources resolve as Obsidian resolves them (by path, or by name anywhere).
 */
import { frontmatterList, frontmatterPaths, splitFrontmatter, stripCode } from "../core/markdown";
import { nameKey } from "../core/unicode";
import { oneOf, replaceDelimited } from "../core/text-scan";
import { linkBasename, wikilinkTargets } from "../core/wikilinks";
import type { VaultPort } from "../vault/vault-port";
import { indexPath, logPath } from "../write/index-log";
import { basenameOf, effectiveWikiFolder } from "../wiki/page-paths";
import { isInFolder } from "../wiki/read-note";
import { runPieces, runPiecesSliced, type Pieces } from "../core/time-slice";

export interface PageRecord {
  readonly path: string;
  readonly text: string;
  readonly frontmatter: Record<string, unknown>;
  readonly frontmatterInvalid: boolean;
  readonly hasFrontmatter: boolean;
  readonly body: string;
  readonly title: string;
  readonly aliases: readonly string[];
  readonly type: string;
  readonly sources: readonly string[];
  /** Link targets as written, outside code. */
  readonly links: readonly string[];
  /** Checks the user switched off for this page (`synapse_lint_ignore: [missing-sources]`). */
  readonly ignored: ReadonlySet<string>;
}

export interface WikiSnapshot {
  readonly wikiFolder: string;
  readonly pages: readonly PageRecord[];
  /** Every Markdown file of the vault outside the excluded folders, pages included. */
  readonly files: readonly string[];
  /**
   * Files in excluded folders: never read, but a link or a source naming one is not broken — the
   * note is there, only kept out of Synapse's reach.
   */
  readonly excludedFiles: readonly string[];
  /** Outgoing links of every note outside the wiki (for orphans). */
  readonly noteLinks: ReadonlyMap<string, readonly string[]>;
  readonly indexText: string | null;
}

/**
 * The file's text, or null when it cannot be read — whether the vault rejects or throws at once.
 * Where the vault offers `readWithStat` (the CLI's), lint reads through it: it is the same text in
 * one synchronous call, where `read`'s asynchronous realpath, open, stat, read and close are five
 * promise round trips a file, most of the CPU of reading a wiki of 5,000 small pages.
 */
export async function readOrNull(vault: VaultPort, path: string): Promise<string | null> {
  try {
    if (vault.readWithStat) return (await vault.readWithStat(path))?.text ?? null;
    return await vault.read(path);
  } catch {
    return null;
  }
}

/** The text lint reads links in: without code, and without escaped links (`\[[x]]`), which are text. */
export function linkText(markdown: string): string {
  return replaceDelimited(stripCode(markdown), "\\[[", oneOf("]\n"), "]]", () => "");
}

export function linksOutsideCode(markdown: string): string[] {
  return wikilinkTargets(linkText(markdown));
}

/**
 * Reads the wiki. `checkpoint` (see slices.ts) is awaited before each file, so that in Obsidian
 * parsing thousands of pages never holds the main thread for long, and a cancel stops the read.
 */
export async function loadSnapshot(vault: VaultPort, wikiFolderSetting: string, excluded: (path: string) => boolean, checkpoint?: () => Promise<void>): Promise<WikiSnapshot> {
  const wikiFolder = effectiveWikiFolder(wikiFolderSetting);
  const special = new Set([indexPath(wikiFolder), logPath(wikiFolder)]);
  const listed = await vault.list("");
  const files = listed.filter((p) => !excluded(p));
  const excludedFiles = listed.filter((p) => excluded(p));
  const pages: PageRecord[] = [];
  const noteLinks = new Map<string, readonly string[]>();
  const index = indexPath(wikiFolder);
  let indexText: string | null = null;
  let indexRead = false;
  for (const path of files) {
    await checkpoint?.();
    const text = await readOrNull(vault, path);
    if (path === index) {
      indexText = text;
      indexRead = true;
      continue;
    }
    if (text === null) continue;
    if (!isInFolder(path, wikiFolder)) {
      noteLinks.set(path, linksOutsideCode(splitFrontmatter(text).body));
      continue;
    }
    if (special.has(path)) continue;
    const split = splitFrontmatter(text);
    const fm = split.frontmatter;
    pages.push({
      path,
      text,
      frontmatter: fm,
      frontmatterInvalid: split.frontmatterInvalid,
      hasFrontmatter: split.rawFrontmatter !== "" || text.startsWith("---"),
      body: split.body,
      title: typeof fm.title === "string" && fm.title.trim() ? fm.title.trim() : basenameOf(path),
      aliases: frontmatterList(fm.aliases),
      type: typeof fm.type === "string" ? fm.type : "",
      sources: frontmatterPaths(fm.sources),
      links: linksOutsideCode(split.body),
      ignored: new Set(frontmatterList(fm.synapse_lint_ignore)),
    });
  }
  // index.md is read with the others, unless it is excluded or not listed.
  if (!indexRead) indexText = await readOrNull(vault, index);
  return { wikiFolder, pages, files, excludedFiles, noteLinks, indexText };
}

/**
 * Resolves link targets and source paths the way Obsidian does: a path, or a name anywhere. Files
 * in excluded folders resolve too (after the others, for a name both share): what they hold is
 * unknown to lint, but they exist.
 */
const resolvers = new WeakMap<WikiSnapshot, Resolver>();

/** How many files a step of filling a resolver's tables takes in (see Resolver.ofSliced). */
const FILES_PER_PIECE = 500;

/** By comparison key (nameKey): what a link or a source may name. */
interface ResolverTables {
  /** The vault path without `.md`. */
  readonly byPath: Map<string, string>;
  /** The file name: the first file of that name, in vault order. */
  readonly byName: Map<string, string>;
  /** Every file of each name, in vault order: a moved file may share its name with others. */
  readonly allByName: Map<string, string[]>;
  readonly byAlias: Map<string, string>;
}

export class Resolver {
  /**
   * Answers so far, by target as written: a wiki's pages link to the same few names again and
   * again (and every pass of lint resolves them: inbound links, dangling links, sources), and the
   * snapshot never changes under a resolver.
   */
  private readonly resolved = new Map<string, string | null>();

  /** The resolver of one snapshot, made once: lint's passes and fixes all resolve against the same files. */
  static of(snapshot: WikiSnapshot): Resolver {
    return resolvers.get(snapshot) ?? Resolver.made(snapshot, runPieces(Resolver.fill(snapshot)));
  }

  /** `of`, its tables filled a few hundred files per step between checkpoints (see slices.ts). */
  static async ofSliced(snapshot: WikiSnapshot, checkpoint: () => Promise<void>): Promise<Resolver> {
    return resolvers.get(snapshot) ?? Resolver.made(snapshot, await runPiecesSliced(Resolver.fill(snapshot), checkpoint));
  }

  private static made(snapshot: WikiSnapshot, tables: ResolverTables): Resolver {
    const resolver = new Resolver(tables, new Set(snapshot.excludedFiles));
    resolvers.set(snapshot, resolver);
    return resolver;
  }

  private static *fill(snapshot: WikiSnapshot): Pieces<ResolverTables> {
    const tables: ResolverTables = { byPath: new Map(), byName: new Map(), allByName: new Map(), byAlias: new Map() };
    let n = 0;
    for (const file of [...snapshot.files, ...snapshot.excludedFiles]) {
      if (++n % FILES_PER_PIECE === 0) yield;
      const path = nameKey(file.replace(/\.md$/i, ""));
      if (!tables.byPath.has(path)) tables.byPath.set(path, file);
      const name = nameKey(basenameOf(file));
      if (!tables.byName.has(name)) tables.byName.set(name, file);
      const same = tables.allByName.get(name);
      if (same) same.push(file);
      else tables.allByName.set(name, [file]);
    }
    for (const page of snapshot.pages) {
      if (++n % FILES_PER_PIECE === 0) yield;
      for (const alias of page.aliases) tables.byAlias.set(nameKey(alias), page.path);
    }
    return tables;
  }

  private constructor(
    private readonly tables: ResolverTables,
    private readonly excluded: ReadonlySet<string>,
  ) {}

  /** Is this resolved file in an excluded folder (not read, not linted, but there)? */
  isExcluded(path: string): boolean {
    return this.excluded.has(path);
  }

  /** The file a link target or a `sources` entry names, or null. */
  resolve(target: string): string | null {
    let found = this.resolved.get(target);
    if (found === undefined) {
      found = this.lookUp(target);
      this.resolved.set(target, found);
    }
    return found;
  }

  private lookUp(target: string): string | null {
    const clean = target.replace(/^\[\[|\]\]$/g, "").replace(/\|.*$/, "").replace(/^\.\//, "").trim();
    const key = nameKey(clean.replace(/\.md$/i, ""));
    return this.tables.byPath.get(key) ?? (clean.includes("/") ? null : (this.tables.byName.get(nameKey(linkBasename(clean))) ?? this.tables.byAlias.get(key) ?? null));
  }

  /**
   * A link target written as a path whose file moved: the same name elsewhere — the first such file
   * that `accept` takes (by default any).
   */
  movedTo(target: string, accept: (file: string) => boolean = () => true): string | null {
    if (!target.includes("/")) return null;
    return (this.tables.allByName.get(nameKey(linkBasename(target))) ?? []).find(accept) ?? null;
  }
}
