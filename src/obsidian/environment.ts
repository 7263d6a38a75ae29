/**
 * What the plugin hands the provider factory: the current settings, Obsidian's secret storage,
 * and the two transports. Non-streaming calls go through `requestUrl` (no CORS); streaming calls
 * go through Node's http on desktop, loaded on first use so that neither start-up nor mobile ever
 * evaluates Node code; on mobile, streaming falls back to `requestUrl` (whole replies at once).
 */
import { FileSystemAdapter, Platform, type App } from "obsidian";
import type { RunLogger } from "../core/log";
import type { FetchLike, ProviderEnvironment } from "../providers/environment";
import type { Settings } from "../settings/schema";
import { createRequestUrlFetch } from "./request-url-fetch";
import { ObsidianSecrets } from "./secrets";

export class PluginEnvironment {
  private readonly requestFetch: FetchLike = createRequestUrlFetch();
  private streaming: Promise<FetchLike> | null = null;

  constructor(private readonly app: App) {}

  async build(settings: Settings, logger?: RunLogger): Promise<ProviderEnvironment> {
    return {
      settings,
      secrets: new ObsidianSecrets(this.app.secretStorage),
      fetch: this.requestFetch,
      streamingFetch: await this.streamingFetch(),
      browserLike: true,
      vaultPath: this.vaultPath(),
      ...(logger ? { logger } : {}),
    };
  }

  /**
   * For non-streaming requests only (embeddings): requestUrl, secret storage, and no streaming
   * transport, so building one never loads Node code.
   */
  forRequests(settings: Settings): ProviderEnvironment {
    return { settings, secrets: new ObsidianSecrets(this.app.secretStorage), fetch: this.requestFetch, streamingFetch: this.requestFetch, browserLike: true };
  }

  /** Where the vault lies on disk (desktop only): the bridge serves vaults by their folder. */
  private vaultPath(): string | null {
    const adapter = this.app.vault.adapter;
    return adapter instanceof FileSystemAdapter ? adapter.getBasePath() : null;
  }

  private streamingFetch(): Promise<FetchLike> {
    this.streaming ??= Platform.isDesktopApp
      ? import("../providers/transports/node-fetch").then((m) => m.createNodeFetch())
      : Promise.resolve(this.requestFetch);
    return this.streaming;
  }
}
