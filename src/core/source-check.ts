/**
 * A page's `sources` are notes of this vault that a provider may read: a model's citation is data
 * like the rest of its reply, and a page that cites a path outside the vault, a note that is not
 * there, a note in an excluded folder or the wiki's own bookkeeping is refused (the validator turns
 * each refusal into an issue the generate retry feeds back). Pure: the vault is asked through the
 * functions given.
 */
import { isExcluded } from "./perimeter";
import { canonicalSource, sourceKey } from "./sources";

export type SourceProblem = "outside" | "missing" | "excluded" | "bookkeeping";

export interface RefusedSource {
  /** The citation as the model wrote it. */
  readonly source: string;
  readonly problem: SourceProblem;
}

export interface SourceRules {
  /** Vault-relative folders whose notes are never sent to a provider (the perimeter's setting). */
  readonly excludedFolders: readonly string[];
  /** Files of the wiki that are not notes: index.md, log.md. Obsidian's and Synapse's dot-folders always are. */
  readonly bookkeeping: ReadonlySet<string>;
  /** Notes known to be there and admitted by the perimeter (the ingested note), in any spelling. */
  readonly admitted?: readonly string[];
  /** Is there a file at this vault path? */
  readonly exists: (path: string) => Promise<boolean>;
  /** Where a path really leads (symbolic links resolved), where the vault can have links. */
  readonly realPath?: (path: string) => Promise<string>;
}

/** The path a citation names, before `..` and leading slashes are resolved away. */
function citedPath(source: string): string {
  const trimmed = source.normalize("NFC").trim();
  const link = /^!?\[\[([^\]]*)\]\]$/.exec(trimmed);
  return link ? (link[1] ?? "").replace(/\|.*$/, "").replace(/#.*$/, "").trim() : trimmed;
}

/** A citation that cannot name a vault note whatever the vault holds: `..`, a drive, a home, a URL. */
function leavesVault(path: string): boolean {
  return (
    path.split(/[\\/]/).some((segment) => segment.trim() === "..") ||
    /^[A-Za-z][A-Za-z0-9+.-]*:/.test(path) || // C:\… and file:, http:, obsidian:…
    path.startsWith("\\\\") ||
    path.startsWith("~") ||
    // eslint-disable-next-line no-control-regex -- control characters are what is being refused
    /[\u0000-\u001f]/.test(path)
  );
}

function isHidden(path: string): boolean {
  return path.split("/").some((segment) => segment.startsWith("."));
}

async function problemOf(source: string, rules: SourceRules, admitted: ReadonlySet<string>): Promise<SourceProblem | null> {
  const cited = citedPath(source);
  if (leavesVault(cited)) return "outside";
  if (admitted.has(sourceKey(source))) return null;
  const path = canonicalSource(source);
  if (!path) return "missing";
  if (isHidden(path) || rules.bookkeeping.has(path)) return "bookkeeping";
  if (isExcluded(path, rules.excludedFolders)) return "excluded";
  // A vault that cannot even look (a link leading out of it) has no such note for us.
  // Paths are compared as NFC; a vault synced from macOS may store the name decomposed.
  const exists = await rules
    .exists(path)
    .then(async (found) => found || (path.normalize("NFD") !== path && (await rules.exists(path.normalize("NFD")))))
    .catch(() => null);
  if (exists === null) return "outside";
  if (!exists) return /^[\\/]/.test(cited) ? "outside" : "missing";
  const real = rules.realPath ? await rules.realPath(path).catch(() => path) : path;
  if (real !== path && (isExcluded(real, rules.excludedFolders) || isHidden(real))) return "excluded";
  return null;
}

/**
 * A check of cited sources against the vault, asking the vault once per distinct path however
 * many pages and attempts cite it.
 */
export function sourceChecker(rules: SourceRules): (sources: readonly string[]) => Promise<RefusedSource[]> {
  const verdicts = new Map<string, Promise<SourceProblem | null>>();
  const admitted = new Set((rules.admitted ?? []).map(sourceKey));
  return async (sources) => {
    const refused: RefusedSource[] = [];
    for (const source of sources) {
      let verdict = verdicts.get(source);
      if (!verdict) {
        verdict = problemOf(source, rules, admitted);
        verdicts.set(source, verdict);
      }
      const problem = await verdict;
      if (problem) refused.push({ source, problem });
    }
    return refused;
  };
}

/** Why a citation was refused, for the model's retry: what is wrong and what to cite instead. */
export function problemForModel(problem: SourceProblem): string {
  switch (problem) {
    case "outside":
      return 'is not a path inside the vault (no "..", no absolute paths, drives or URLs)';
    case "missing":
      return "is not a note in the vault";
    case "excluded":
      return "is in a folder the user excluded, so it must not be cited";
    case "bookkeeping":
      return "is one of the wiki's own files (index, log or settings), not a source note";
  }
}

/** Why a citation was refused, for the person reading the run's report. */
export function problemForUser(problem: SourceProblem): string {
  switch (problem) {
    case "outside":
      return "it points outside the vault";
    case "missing":
      return "no such note exists in the vault";
    case "excluded":
      return 'it is in an excluded folder (setting "Excluded folders")';
    case "bookkeeping":
      return "it is one of the wiki's own files, not a note";
  }
}
