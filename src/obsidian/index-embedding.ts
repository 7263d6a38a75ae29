/**
 * Which settings, when they change, call for another embedder, and so a reopened index.
 */
import type { Settings } from "../settings/schema";

/**
 * The settings an embedder is built from: a change to any of them builds another one. The chat
 * model of the same backend is not among them, so choosing another chat model keeps the index.
 */
export function embeddingKey(settings: Settings): unknown {
  const { provider, model } = settings.embedding;
  const common = [provider, model.trim(), settings.localOnly, settings.requestTimeoutSeconds];
  switch (provider) {
    case "none":
      return ["none"];
    case "ollama": {
      const ollama = settings.profiles.ollama;
      return [...common, ollama.host, ollama.embeddingModel.trim()];
    }
    case "openai": {
      const openai = settings.profiles.openai;
      return [...common, openai.preset, openai.baseUrl, openai.apiKeySecret];
    }
  }
}
