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

export function linksOutsideCode(markdown: string): string[] {
  // Escaped links (`\[[x]]`) are text.
  return wikilinkTargets(replaceDelimited(stripCode(markdown), "\\[[", oneOf("]\n"), "]]", () => ""));
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

export class Resolver {
  private readonly byPath = new Map<string, string>();
  private readonly byName = new Map<string, string>();
  /** Every file of each name, in vault order: a moved file may share its name with others. */
  private readonly allByName = new Map<string, string[]>();
  private readonly byAlias = new Map<string, string>();
  private readonly excluded: ReadonlySet<string>;
  /**
   * Answers so far, by target as written: a wiki's pages link to the same few names again and
   * again (and every pass of lint resolves them: inbound links, dangling links, sources), and the
   * snapshot never changes under a resolver.
   */
  private readonly resolved = new Map<string, string | null>();

  /** The resolver of one snapshot, made once: lint's passes and fixes all resolve against the same files. */
  static of(snapshot: WikiSnapshot): Resolver {
    let resolver = resolvers.get(snapshot);
    if (!resolver) {
      resolver = new Resolver(snapshot);
      resolvers.set(snapshot, resolver);
    }
    return resolver;
  }

  constructor(snapshot: WikiSnapshot) {
    for (const file of [...snapshot.files, ...snapshot.excludedFiles]) {
      const path = nameKey(file.replace(/\.md$/i, ""));
      if (!this.byPath.has(path)) this.byPath.set(path, file);
      const name = nameKey(basenameOf(file));
      if (!this.byName.has(name)) this.byName.set(name, file);
      const same = this.allByName.get(name);
      if (same) same.push(file);
      else this.allByName.set(name, [file]);
    }
    for (const page of snapshot.pages) for (const alias of page.aliases) this.byAlias.set(nameKey(alias), page.path);
    this.excluded = new Set(snapshot.excludedFiles);
  }

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
    return this.byPath.get(key) ?? (clean.includes("/") ? null : (this.byName.get(nameKey(linkBasename(clean))) ?? this.byAlias.get(key) ?? null));
  }

  /**
   * A link target written as a path whose file moved: the same name elsewhere — the first such file
   * that `accept` takes (by default any).
   */
  movedTo(target: string, accept: (file: string) => boolean = () => true): string | null {
    if (!target.includes("/")) return null;
    return (this.allByName.get(nameKey(linkBasename(target))) ?? []).find(accept) ?? null;
  }
}
