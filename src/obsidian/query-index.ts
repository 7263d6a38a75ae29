/**
 * The search index "Ask the wiki" retrieves from, in the plugin: the vault's persisted index (the
 * same shards the CLI keeps in the state folder), opened on the first question rather than at
 * start-up, and brought up to date before each question — a sync only re-reads notes whose time or
 * size changed, yielding to Obsidian between batches. Settings that change what is indexed (the
 * wiki folder, the excluded folders) reopen it.
 */
import type { Retriever } from "../retrieval/types";
import type { VaultIndex } from "../retrieval/vault-index";
import type { Settings } from "../settings/schema";
import type { StateStore } from "../vault/state-store";
import type { VaultPort } from "../vault/vault-port";

export class LazyVaultIndex {
  private opened: { key: string; index: Promise<VaultIndex> } | null = null;
  private syncing: Promise<VaultIndex> | null = null;

  constructor(
    private readonly vault: VaultPort,
    private readonly store: StateStore,
    private readonly settings: () => Settings,
    private readonly yieldNow: () => Promise<void>,
  ) {}

  /** The index, up to date with the vault; concurrent callers share one sync. */
  current(): Promise<Retriever> {
    this.syncing ??= this.sync().finally(() => (this.syncing = null));
    return this.syncing;
  }

  private async sync(): Promise<VaultIndex> {
    const { wikiFolder, excludedFolders } = this.settings();
    const key = JSON.stringify([wikiFolder, excludedFolders]);
    if (this.opened?.key !== key) {
      // Loaded with the first question: start-up only registers.
      const index = import("../retrieval/vault-index").then(({ VaultIndex }) => VaultIndex.open({ store: this.store, reader: this.vault, wikiFolder, excludedFolders }));
      this.opened = { key, index };
      // A failed open is tried again at the next question, not remembered.
      index.catch(() => (this.opened = null));
    }
    const index = await this.opened.index;
    const { syncIndex } = await import("../retrieval/sync");
    await syncIndex(index, this.vault, { yieldNow: this.yieldNow });
    return index;
  }
}
