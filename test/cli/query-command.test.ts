import { describe, expect, it } from "vitest";
import { citationLines, jsonQueryReport } from "../../src/cli/query-command";
import { askWiki } from "../../src/query/ask";
import { DEFAULT_SETTINGS } from "../../src/settings/schema";
import { MemoryVault } from "../../src/vault/memory-vault";
import { ChatProvider, FixedRetriever, hit } from "../query/fakes";

const ADA = "wiki/entities/Ada Lovelace.md";

async function answer(reply: string) {
  const vault = new MemoryVault({ [ADA]: "Ada Lovelace wrote the first program for the Analytical Engine." });
  const retriever = new FixedRetriever([hit(ADA, "Ada Lovelace wrote the first program for the Analytical Engine.")]);
  return askWiki({ vault, provider: new ChatProvider([reply]), retriever, settings: structuredClone(DEFAULT_SETTINGS) }, { question: "Who wrote the first program?" });
}

describe("synapse query's output of citations", () => {
  it("--json gives each unverified citation its reason and the answer a warning when none is verified", async () => {
    const json = JSON.parse(jsonQueryReport(await answer("Babbage, see [[Charles Babbage]] and [4]."), null)) as Record<string, unknown>;
    expect(json.citations).toEqual([
      { page: "Charles Babbage", path: null, verified: false, problem: "not-in-context", reason: "This page was not among the passages sent to the model." },
      { page: "[4]", path: null, verified: false, problem: "no-such-passage", reason: "There is no passage 4 in the context that was sent." },
    ]);
    expect(json.warning).toMatch(/None of this answer's citations could be verified/);
    const cited = JSON.parse(jsonQueryReport(await answer("Ada did [1]."), null)) as Record<string, unknown>;
    expect(cited.citations).toEqual([{ page: "Ada Lovelace", path: ADA, verified: true, problem: null, reason: null }]);
    expect(cited.warning).toBeNull();
  });

  it("the human output ends its citations with a warning line when the answer cites nothing verified", async () => {
    expect(citationLines(await answer("Ada did."))).toEqual(["Warning: This answer cites no page of your wiki, so nothing in it could be checked against your vault; treat it as unsupported."]);
    expect(citationLines(await answer("Ada did [1]."))).toEqual([`  ✓ Ada Lovelace (${ADA})`]);
  });
});
