/** The optional vector search rows: which backend embeds the vault's chunks, and with which model. */
import type { EmbeddingProviderId } from "../../settings/schema";
import { save, textRow, type SettingRow, type SettingsContext } from "./rows";

export const EMBEDDING_LABELS: Record<EmbeddingProviderId, string> = {
  none: "None (text and links only)",
  ollama: "Local: Ollama",
  openai: "API: OpenAI-compatible",
};

export function embeddingRows(ctx: SettingsContext): SettingRow[] {
  return [
    {
      name: "Vector search with",
      desc: "Optional. Embeddings let search find notes by meaning as well as by their words; without them search uses text and links, and works on any vault. The server and key are those of the backend's section below. The plugin's search index (ingest and Ask the wiki) and the command line's search, index and query all use it.",
      build: (setting) => {
        setting.addDropdown((dropdown) =>
          dropdown
            .addOptions(EMBEDDING_LABELS)
            .setValue(ctx.store.settings.embedding.provider)
            .onChange((value) => void save(setting, ctx.store, (draft) => (draft.embedding.provider = value as EmbeddingProviderId))),
        );
      },
    },
    textRow(
      ctx,
      "Embedding model",
      "The model that embeds (such as nomic-embed-text for Ollama, text-embedding-3-small for OpenAI). Empty with Ollama uses the Ollama section's embedding model.",
      (s) => s.embedding.model,
      (d, v) => (d.embedding.model = v),
      "nomic-embed-text",
    ),
  ];
}
