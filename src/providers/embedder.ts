/**
 * Turns a provider that declares an embedding capability into the retrieval layer's `Embedder`
 * port, and builds the one the settings choose (`embedding.provider` and `embedding.model`). A
 * provider that declares no embeddings yields none: the index then searches text and links only.
 */
import { SynapseError } from "../core/errors";
import { Perimeter } from "../core/perimeter";
import type { InferenceProvider } from "../core/provider";
import { createRunContext } from "../core/run-context";
import type { Embedder } from "../retrieval";
import type { Settings } from "../settings/schema";
import { isEmbeddingProvider } from "./embedding";
import type { ProviderEnvironment } from "./environment";
import { createOllama, createOpenAI } from "./factory";

/** The provider's embeddings as an Embedder, or null when it declares none. */
export function embedderOf(provider: InferenceProvider): Embedder | null {
  const caps = provider.capabilities();
  if (!caps.supportsEmbeddings || !isEmbeddingProvider(provider) || provider.embeddingModel === "") return null;
  return {
    modelId: `${caps.name}:${provider.embeddingModel}`,
    async embed(texts, signal) {
      const run = createRunContext(signal ? { signal } : {});
      const vectors = await provider.embed(texts, run);
      if (vectors.length !== texts.length) throw new SynapseError("schema", `The embedding model returned ${vectors.length} vectors for ${texts.length} texts.`);
      const dims = vectors[0]?.length ?? 0;
      for (const v of vectors) {
        if (v.length === 0 || v.length !== dims) throw new SynapseError("schema", `The embedding model returned vectors of different lengths (${dims} and ${v.length}) in one reply.`);
      }
      return vectors.map((v) => Float32Array.from(v));
    },
  };
}

/**
 * Embedding sends the text of every indexed note to the model, so local-only mode refuses an
 * embedding server off this machine, as it refuses any other provider (the perimeter's check).
 */
function admitted(env: ProviderEnvironment, provider: InferenceProvider): Embedder | null {
  new Perimeter({ localOnly: env.settings.localOnly, excludedFolders: env.settings.excludedFolders }).admitProvider(provider);
  return embedderOf(provider);
}

/**
 * The `modelId` of the embedder the settings choose, without building it (no key or server is
 * needed), or null when they choose none: whose vectors are the configured model's, kept on disk
 * while another model is tried. Matches `createEmbedder(…).modelId` (tested).
 */
export function configuredEmbeddingModelId(settings: Settings): string | null {
  const { provider, model } = settings.embedding;
  switch (provider) {
    case "none":
      return null;
    case "ollama": {
      const embeddingModel = model.trim() || settings.profiles.ollama.embeddingModel.trim();
      return embeddingModel ? `ollama:${embeddingModel}` : null;
    }
    case "openai":
      return model.trim() ? `openai:${model.trim()}` : null;
  }
}

/** The embedder the settings choose, or null when they choose none. */
export function createEmbedder(env: ProviderEnvironment): Embedder | null {
  const { provider, model } = env.settings.embedding;
  const profiles = env.settings.profiles;
  const withProfiles = (next: Partial<Settings["profiles"]>): ProviderEnvironment => ({ ...env, settings: { ...env.settings, profiles: { ...profiles, ...next } } });
  switch (provider) {
    case "none":
      return null;
    case "ollama": {
      const embeddingModel = model.trim() || profiles.ollama.embeddingModel.trim();
      if (!embeddingModel) throw new SynapseError("config", "Vector search with Ollama needs an embedding model (such as nomic-embed-text); set one or choose no embeddings.");
      return admitted(env, createOllama(withProfiles({ ollama: { ...profiles.ollama, embeddingModel } })));
    }
    case "openai": {
      if (!model.trim()) throw new SynapseError("config", "Vector search with an OpenAI-compatible server needs an embedding model (such as text-embedding-3-small); set one or choose no embeddings.");
      return admitted(env, createOpenAI(env, model.trim()));
    }
  }
}
