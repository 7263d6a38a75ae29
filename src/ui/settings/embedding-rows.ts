/** The optional vector search rows: which backend embeds the vault's chunks, and with which model. */
import type { EmbeddingProviderId } from "../../settings/schema";
import { dropdownRow, textRow, type SettingRow, type SettingsContext } from "./rows";

export const EMBEDDING_LABELS: Record<EmbeddingProviderId, string> = {
  none: "None (text and links only)",
  ollama: "Local: Ollama",
  openai: "API: OpenAI-compatible",
};

export function embeddingRows(ctx: SettingsContext): SettingRow[] {
  return [
    dropdownRow(
      ctx,
      "Vector search with",
      "Optional: find notes by meaning as well as by their words, with the server and key of that backend's section.",
      EMBEDDING_LABELS,
      (s) => s.embedding.provider,
      (d, v) => (d.embedding.provider = v),
      ctx.refresh,
    ),
    {
      ...textRow(
        ctx,
        "Embedding model",
        "Such as text-embedding-3-small; empty with Ollama uses the Ollama section's embedding model.",
        (s) => s.embedding.model,
        (d, v) => (d.embedding.model = v),
        "nomic-embed-text",
      ),
      // A model for vector search means nothing while there is none.
      visible: (s) => s.embedding.provider !== "none",
    },
  ];
}
