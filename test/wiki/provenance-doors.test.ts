/**
 * Every door through which page text reaches a model or a snippet takes Synapse's markers and
 * attribution lines out, and drops a passage made of nothing else.
 */
import { describe, expect, it } from "vitest";
import { pageText } from "../../src/lint/pair-prompt";
import type { PageRecord } from "../../src/lint/snapshot";
import { askWiki } from "../../src/query/ask";
import { packHits, packedText } from "../../src/wiki/ingest/context-pack";
import { buildWikiContext } from "../../src/wiki/ingest/related-pages";
import { makeSnippet } from "../../src/retrieval/snippet";
import { DEFAULT_SETTINGS } from "../../src/settings/schema";
import { MemoryVault } from "../../src/vault/memory-vault";
import { ChatProvider, FixedRetriever, hit } from "../query/fakes";

const ADA = "wiki/entities/Ada Lovelace.md";
const BARE = "wiki/entities/Analytical Engine.md";
const MARKED = "%% synapse:source notes/ada.md hash=0123456789abcdef %%\n*From [[notes/ada|Ada]]*\n\nAda Lovelace wrote the first program for the Analytical Engine.\n\n%% /synapse:source %%";
const ONLY_MARKERS = "%% synapse:source notes/engine.md hash=fedcba9876543210 %%\n*From [[notes/engine|Engine]]*\n\n%% /synapse:source %%";

describe("Synapse's markers never reach a model or a snippet", () => {
  it("query: the context the provider receives has no marker, no attribution, and no marker-only passage", async () => {
    const vault = new MemoryVault({ [ADA]: `---\ntype: entity\n---\n${MARKED}`, [BARE]: `---\ntype: concept\n---\n${ONLY_MARKERS}` });
    const provider = new ChatProvider(["Ada wrote it [1]."]);
    const report = await askWiki(
      { vault, provider, retriever: new FixedRetriever([hit(ADA, MARKED), hit(BARE, ONLY_MARKERS)]), settings: structuredClone(DEFAULT_SETTINGS) },
      { question: "Who wrote the first program for the Analytical Engine?" },
    );
    expect(report.error).toBeNull();
    const sent = provider.calls[0]?.context ?? "";
    expect(sent).toContain("Ada Lovelace wrote the first program");
    expect(sent).not.toContain("synapse:");
    expect(sent).not.toContain("*From [[");
    expect(report.passages.map((p) => p.path)).toEqual([ADA]);
  });

  it("ingest, indexed: the related-page blocks carry no marker, and a marker-only chunk is not sent", () => {
    const packed = packHits([hit(ADA, MARKED), hit(BARE, ONLY_MARKERS)], 4000);
    const text = packedText(packed);
    expect(text).toContain("Ada Lovelace wrote the first program");
    expect(text).not.toContain("synapse:");
    expect(text).not.toContain("*From [[");
    expect(packed.blocks.map((b) => b.hit.path)).toEqual([ADA]);
  });

  it("ingest, by title: the excerpts of the pages a note mentions carry no marker", async () => {
    const vault = new MemoryVault({ [ADA]: `---\ntype: entity\n---\n${MARKED}`, [BARE]: ONLY_MARKERS });
    const context = await buildWikiContext(vault, "wiki", [ADA, BARE], "Ada Lovelace and the Analytical Engine.");
    expect(context.retrievalContext).toContain("Ada Lovelace wrote the first program");
    expect(context.retrievalContext).not.toContain("synapse:");
    expect(context.retrievalContext).not.toContain("*From [[");
    expect(context.retrievalContext).not.toContain("Existing page [[Analytical Engine]]");
  });

  it("lint: a pair prompt's page text carries no attribution line", () => {
    expect(pageText({ body: MARKED } as PageRecord)).toBe("Ada Lovelace wrote the first program for the Analytical Engine.");
  });

  it("search: a snippet shows no marker or attribution", () => {
    const snippet = makeSnippet(MARKED, ["ada"]);
    expect(snippet).not.toContain("synapse:");
    expect(snippet).not.toContain("From [[");
    expect(snippet).toContain("**Ada**");
  });
});
