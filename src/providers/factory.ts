/**
 * The composition root for providers: the one place where settings and secrets become clients.
 * Adapters receive what they need and never read settings or the environment themselves.
 */
import { SynapseError } from "../core/errors";
import type { InferenceProvider } from "../core/provider";
import type { ProviderId } from "../settings/schema";
import type { ProviderEnvironment } from "./environment";
import { OfflineProvider } from "./offline/offline-provider";

export function createProvider(id: ProviderId, env: ProviderEnvironment): InferenceProvider {
  void env;
  switch (id) {
    case "offline":
      return new OfflineProvider();
    default:
      throw new SynapseError("config", `The ${id} provider is not available yet.`);
  }
}
