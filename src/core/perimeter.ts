/**
 * The privacy perimeter: the one chokepoint every provider call passes. Local-only mode refuses a
 * provider whose `isLocal` is false, and notes in excluded folders never reach any provider.
 * Both checks run before anything is sent.
 */
import { backendName } from "./backend-name";
import { SynapseError } from "./errors";
import { canonicalSource, normaliseVaultPath } from "./sources";
import { nameKey } from "./unicode";
import type { InferenceProvider, StructuredAsk } from "./provider";
import type { RunContext } from "./run-context";

export interface PrivacyPolicy {
  readonly localOnly: boolean;
  /** Vault-relative folders whose notes are never sent to a provider. */
  readonly excludedFolders: readonly string[];
}

/** A backslash, white space at either end, an empty, `.` or `..` segment: what normalising a path
 * cleans. A path without any is normalised by NFC alone (and a printable ASCII one not at all). */
const UNCLEAN = /\\|^\s|\s$|(?:^|\/)\.{0,2}(?:\/|$)/;
const ASCII = /^[\x20-\x7e]*$/;

/** Compared as NFC and without case: on macOS and Windows "private/x.md" is the same file as
 * "Private/x.md", macOS-synced vaults spell "Privé" decomposed, and excluding a little more than
 * asked is the safe side of the line. */
function normaliseFolder(folder: string): string {
  if (UNCLEAN.test(folder)) return nameKey(normaliseVaultPath(folder));
  return ASCII.test(folder) ? folder.toLowerCase() : nameKey(folder);
}

/**
 * Whether a path lies in any of `folders`, as a test for many paths: the folders are normalised
 * once (loading a 50,000-note index asks it for every note).
 */
export function inFolders(folders: readonly string[]): (path: string) => boolean {
  const keys = folders.map(normaliseFolder).filter((folder) => folder.length > 0);
  if (keys.length === 0) return () => false;
  return (path) => {
    const p = normaliseFolder(path);
    return keys.some((folder) => p === folder || p.startsWith(`${folder}/`));
  };
}

export function isExcluded(path: string, excludedFolders: readonly string[]): boolean {
  return inFolders(excludedFolders)(path);
}

/**
 * May a wiki page be quoted or named to a provider, given the notes it was drawn from (its
 * frontmatter `sources`, in any spelling: `[[notes/n]]`, `./notes/n.md`)? Not when any of them lies
 * in an excluded folder: the page carries that note's words, even if it was written before the
 * folder was excluded. A page that cites no source (the user's own) is judged by its path alone.
 */
export function isShareablePage(sources: readonly string[], excludedFolders: readonly string[]): boolean {
  return !sources.some((source) => isExcluded(canonicalSource(source), excludedFolders));
}

export class Perimeter {
  constructor(private readonly policy: PrivacyPolicy) {}

  /** Throws when the note lies in an excluded folder. */
  admitNote(path: string): void {
    if (isExcluded(path, this.policy.excludedFolders)) {
      throw new SynapseError(
        "perimeter",
        `"${path}" is in an excluded folder (setting "Excluded folders"), so it is never sent to a provider.`,
      );
    }
  }

  /** Throws when local-only mode forbids this provider. */
  admitProvider(provider: InferenceProvider): void {
    const caps = provider.capabilities();
    if (this.policy.localOnly && !caps.isLocal) {
      throw new SynapseError(
        "perimeter",
        `Local-only mode is on (setting "Local-only mode") and the ${backendName(caps.name)} backend sends notes off this machine; choose a local provider or turn local-only mode off.`,
      );
    }
  }

  private check(provider: InferenceProvider, run: RunContext): void {
    this.admitProvider(provider);
    if (run.source) this.admitNote(run.source.path);
  }

  /** A provider whose every call is checked first. */
  guard(provider: InferenceProvider): InferenceProvider {
    const check = (run: RunContext) => this.check(provider, run);
    return {
      capabilities: () => provider.capabilities(),
      ...(provider.promptTokenRatio ? { promptTokenRatio: () => provider.promptTokenRatio?.() ?? 1 } : {}),
      analyze: async (sourceText, vaultContext, run) => {
        check(run);
        return provider.analyze(sourceText, vaultContext, run);
      },
      generate: async (input, run) => {
        check(run);
        return provider.generate(input, run);
      },
      chat: (messages, retrievalContext, run) => {
        check(run);
        return provider.chat(messages, retrievalContext, run);
      },
      ...(provider.ask
        ? {
            ask: async <T,>(request: StructuredAsk<T>, run: RunContext): Promise<T> => {
              check(run);
              const ask = provider.ask?.bind(provider);
              if (!ask) throw new SynapseError("capability", `The ${provider.capabilities().name} backend cannot answer a structured request.`);
              return ask(request, run);
            },
          }
        : {}),
    };
  }
}
