/**
 * One `synapse mcp` server's hold on its vault: the settings (read again for every call, so a
 * change in Obsidian — an excluded folder, local-only mode — applies at once), the Node vault, the
 * write path, the proposals and the search index (opened once, brought up to date before each use).
 */
import { SynapseError } from "../../core/errors";
import { MemoryRunLogger } from "../../core/log";
import { createProvider } from "../../providers/factory";
import type { InferenceProvider } from "../../core/provider";
import { createNodeFetch } from "../../providers/transports/node-fetch";
import { ProposalStore } from "../../proposals/proposal-store";
import type { Settings } from "../../settings/schema";
import { NodeVault } from "../../vault/node-vault";
import type { WriteContext } from "../../write/apply";
import { openIndexIn, type OpenedIndex } from "../open-index";
import { envSecrets } from "../env-secrets";
import type { CliIO } from "../io";
import { recoverVault } from "../recovery";
import { applyFlags, readVaultSettings, type ProviderFlags } from "../vault-settings";
import { cliWriteContext } from "../vault-root";

export interface SessionOptions {
  readonly vaultRoot: string;
  readonly io: CliIO;
  /** `--allow-writes`: a proposal is applied at once, through the same write path. */
  readonly allowWrites: boolean;
  /** `--local-agent`: the user says the connected agent's model runs on this machine (local-only mode). */
  readonly localAgent: boolean;
  /** `--provider`, `--model`, `--base-url`: the backend of `ask` and of proposed ingests. */
  readonly flags: ProviderFlags;
}

export class McpSession {
  readonly vault: NodeVault;
  readonly write: WriteContext;
  readonly proposals: ProposalStore;
  /** The MCP client's name and version, once it has introduced itself. */
  client: string | null = null;
  private opened: { readonly shape: string; readonly index: Promise<OpenedIndex> } | null = null;

  constructor(readonly options: SessionOptions) {
    this.vault = new NodeVault(options.vaultRoot);
    this.write = cliWriteContext(options.vaultRoot, options.io);
    this.proposals = new ProposalStore(this.write.store);
  }

  async settings(): Promise<Settings> {
    const loaded = await readVaultSettings(this.options.vaultRoot);
    return loaded.settings;
  }

  /**
   * The settings, once vault content may be handed to the agent. In local-only mode the agent's
   * own model may be anywhere, so content goes out only when the user said it is local.
   */
  async admitContent(): Promise<Settings> {
    const settings = await this.settings();
    if (settings.localOnly && !this.options.localAgent) {
      throw new SynapseError(
        "perimeter",
        'Local-only mode is on (setting "Local-only mode"): the agent may send what it reads to a model off this machine. Restart synapse mcp with --local-agent if its model runs on this machine.',
      );
    }
    return settings;
  }

  /** Rolls back a run a crash interrupted, as every CLI command does before it reads or writes. */
  async recover(settings: Settings, purpose: "read" | "write"): Promise<void> {
    await recoverVault(this.vault, settings.wikiFolder, this.write, this.options.io, purpose);
  }

  /**
   * The search index, brought up to date with the vault. Opened once; opened again when the
   * settings it was built under (the wiki folder, the excluded folders) changed.
   */
  async index(settings: Settings, signal?: AbortSignal): Promise<OpenedIndex> {
    const shape = JSON.stringify([settings.wikiFolder, settings.excludedFolders, settings.maxNoteBytes]);
    const held = this.opened;
    if (held && held.shape === shape) {
      const opened = await held.index;
      await opened.index.sync(this.vault, { batchSize: 200, flush: true, ...(signal ? { signal } : {}) });
      return opened;
    }
    const index = openIndexIn(this.options.vaultRoot, settings, this.options.io, { progress: false, ...(signal ? { signal } : {}) });
    this.opened = { shape, index };
    index.catch(() => {
      if (this.opened?.index === index) this.opened = null;
    });
    return index;
  }

  /**
   * Builds (or brings up to date) the search index as the server starts, and writes it, while the
   * client connects: the first search does not pay for it, and a vault that had no index has one
   * on disk even if the session ends early. A failure here is only a warning; the first tool that
   * needs the index tries again and reports it.
   */
  prepareIndex(settings: Settings): Promise<void> {
    return this.index(settings).then(
      () => undefined,
      (error: unknown) => this.options.io.stderr(`Warning: the search index could not be opened yet: ${error instanceof Error ? error.message : String(error)}\n`),
    );
  }

  /** The backend the vault's settings (or the flags) choose for this operation. */
  provider(settings: Settings, operation: "ingest" | "query"): { provider: InferenceProvider; settings: Settings } {
    const chosen = applyFlags(settings, this.options.flags, operation);
    const transport = createNodeFetch();
    const provider = createProvider(chosen.id, {
      settings: chosen.settings,
      secrets: envSecrets(this.options.io.env),
      fetch: transport,
      streamingFetch: transport,
      logger: new MemoryRunLogger(chosen.settings.logContent),
      vaultPath: this.options.vaultRoot,
    });
    return { provider, settings: chosen.settings };
  }
}
