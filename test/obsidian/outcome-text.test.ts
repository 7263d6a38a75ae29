import { describe, expect, it } from "vitest";
import { batchNotice, buildResultListing, countPages, outcomeNotice } from "../../src/obsidian/outcome";
import { describeReadiness } from "../../src/ui/readiness-text";
import type { ReadinessReport } from "../../src/core/readiness";
import type { IngestReport, PageChange } from "../../src/wiki/ingest-types";
import { summariseError } from "../../src/core/errors";
import { classifyHttpFailure } from "../../src/providers/classify-error";
import { NOT_WRITTEN_AGAIN } from "../../src/wiki/ingest/refusals";

function aReport(overrides: Partial<IngestReport> = {}): IngestReport {
  return {
    converged: true,
    stopReason: "converged",
    dryRun: false,
    attempts: { analyze: 1, generate: 1 },
    pages: [],
    upToDate: null,
    declined: [],
    usage: { inputTokens: 1200, outputTokens: 800, costUsd: 0.0123 },
    provider: { name: "anthropic", mode: "api", isLocal: false, model: "claude-sonnet-4-5" },
    error: null,
    issues: [],
    dangling: [],
    contradictions: [],
    locked: [],
    linkedNotes: [],
    durationMs: 4321,
    ...overrides,
  };
}

const page = (path: string, action: PageChange["action"], title = path.split("/").pop()?.replace(".md", "") ?? path): PageChange => ({ path, title, type: "concept", action });

describe("the notice an ingest ends with", () => {
  it("counts the pages by what happened to them", () => {
    const report = aReport({ pages: [page("wiki/a.md", "created"), page("wiki/b.md", "created"), page("wiki/c.md", "updated"), page("wiki/d.md", "merged")] });
    expect(countPages(report)).toBe("2 pages created, 1 updated, 1 merged");
    expect(outcomeNotice("Notes/Bees.md", report)).toEqual({ ok: true, text: 'Synapse ingested "Bees": 2 pages created, 1 updated, 1 merged.' });
    expect(outcomeNotice("Bees.md", aReport({ pages: [page("wiki/a.md", "unchanged")] })).text).toBe('Synapse ingested "Bees": nothing new, the wiki already had it.');
  });

  it("says a note is already up to date, and where it was ingested from when it has moved since", () => {
    const upToDate = aReport({ stopReason: "up_to_date", upToDate: { since: "2026-11-29T10:00:00.000Z", movedFrom: null } });
    expect(outcomeNotice("Notes/Bees.md", upToDate)).toEqual({
      ok: true,
      text: '"Bees" is already up to date: it has not changed since its ingest on 2026-11-29, so nothing was sent or written.',
    });
    const moved = aReport({ stopReason: "up_to_date", upToDate: { since: "2026-11-29T10:00:00.000Z", movedFrom: "Old/Bees.md" } });
    expect(outcomeNotice("Notes/Bees.md", moved).text).toContain('(as "Old/Bees.md", since moved)');
    expect(batchNotice("Inbox", [aReport(), upToDate, upToDate].map((report) => ({ notePath: "Inbox/x.md", report })), 0).text).toBe(
      'Synapse, folder "Inbox": 1 note ingested, 2 already up to date.',
    );
  });

  it("says what the review left out, or that nothing was applied", () => {
    const declined = [page("wiki/b.md", "updated")];
    expect(outcomeNotice("Bees.md", aReport({ pages: [page("wiki/a.md", "created")], declined })).text).toBe(
      'Synapse ingested "Bees": 1 page created. 1 change left out at review: ingest the note again to review it.',
    );
    expect(outcomeNotice("Bees.md", aReport({ pages: [], declined })).text).toBe('Nothing written for "Bees": you applied none of its 1 change.');
  });

  it("says why nothing was written, and what the user can do", () => {
    expect(outcomeNotice("Bees.md", aReport({ converged: false, stopReason: "cancelled" })).text).toBe('Ingest of "Bees" cancelled; nothing was written.');
    expect(
      outcomeNotice("Bees.md", aReport({ converged: false, stopReason: "max_iter", attempts: { analyze: 1, generate: 3 }, issues: ['Page "X" has no sources.'] })).text,
    ).toBe('Synapse wrote nothing for "Bees": the pages failed the checks 3 times. Page "X" has no sources.');
    expect(outcomeNotice("Bees.md", aReport({ converged: false, stopReason: "budget" })).text).toContain("at the token budget (2.0k tokens)");
    expect(outcomeNotice("Bees.md", aReport({ converged: false, stopReason: "deadline" })).text).toContain("Raise the run timeout");
    const refused = aReport({ converged: false, stopReason: "error", error: { kind: "transport", message: "Ollama at http://127.0.0.1:11434 is not running." } });
    expect(outcomeNotice("Bees.md", refused)).toEqual({
      ok: false,
      text: 'Synapse could not ingest "Bees": Ollama at http://127.0.0.1:11434 is not running. Use the test connection button in the settings to check the server.',
    });
  });

  it("gives one hint, never a second after an error that carries its own advice", () => {
    const ownAdvice = aReport({
      converged: false,
      stopReason: "error",
      error: { kind: "transport", message: "Could not reach Ollama at http://127.0.0.1:11434; check that it is running and the address is right." },
    });
    expect(outcomeNotice("Bees.md", ownAdvice).text).toBe(
      'Synapse could not ingest "Bees": Could not reach Ollama at http://127.0.0.1:11434; check that it is running and the address is right.',
    );
    const again = aReport({ converged: false, stopReason: "error", error: { kind: "rate_limit", message: "Anthropic is limiting requests; try again in a minute." } });
    expect(outcomeNotice("Bees.md", again).text).not.toMatch(/try again.*try again/i);
  });

  it("keeps failure notices short: at most 25 words", () => {
    const words = (text: string) => text.split(/\s+/).filter(Boolean).length;
    const reports = [
      aReport({ converged: false, stopReason: "max_iter", attempts: { analyze: 1, generate: 3 }, issues: ["The model left the title of page 1 empty."] }),
      aReport({ converged: false, stopReason: "budget" }),
      aReport({ converged: false, stopReason: "deadline" }),
      aReport({ converged: false, stopReason: "error", error: { kind: "timeout", message: "Ollama did not answer within 120 s." } }),
      aReport({ converged: false, stopReason: "error", error: { kind: "request", message: 'The model "m" does not exist.' } }),
    ];
    for (const report of reports) expect(words(outcomeNotice("Notes/Bees and honey.md", report).text), outcomeNotice("Notes/Bees and honey.md", report).text).toBeLessThanOrEqual(25);
  });

  it("sums up a folder", () => {
    const ok = { notePath: "a.md", report: aReport() };
    const failed = { notePath: "b.md", report: aReport({ converged: false, stopReason: "error", error: { kind: "request", message: "401" } }) };
    expect(batchNotice("Inbox", [ok, ok], 0)).toEqual({ ok: true, text: 'Synapse, folder "Inbox": 2 notes ingested.' });
    expect(batchNotice("", [ok, failed], 3).text).toBe("Synapse, folder the vault: 1 note ingested, 1 not, 3 cancelled.");
  });
});

describe("the result listing", () => {
  it("groups pages by action, sorted by title, each once, with the failures and a summary", () => {
    const first = {
      notePath: "Notes/Bees.md",
      report: aReport({ pages: [page("wiki/concepts/Pollination.md", "created"), page("wiki/entities/Bees.md", "created"), page("wiki/index-like.md", "updated")] }),
      calls: [{ provider: "anthropic", model: "claude-sonnet-4-5", operation: "analyze" as const, outcome: "ok" as const, durationMs: 812.4, attempt: 1, inputTokens: 700, outputTokens: 90, content: { prompt: "Read this note", reply: "{}" } }],
    };
    const second = { notePath: "Notes/Honey.md", report: aReport({ pages: [page("wiki/entities/Bees.md", "updated")] }) };
    const failed = { notePath: "Notes/Wax.md", report: aReport({ converged: false, stopReason: "max_iter", attempts: { analyze: 1, generate: 3 }, issues: ["one", "two"] }) };
    const listing = buildResultListing([first, second, failed], "Ingested from the vault");
    expect(listing.groups.map((g) => g.heading)).toEqual(["Created (2)", "Updated (1)"]);
    expect(listing.groups[0]?.pages.map((p) => p.title)).toEqual(["Bees", "Pollination"]);
    expect(listing.failures).toEqual([{ notePath: "Notes/Wax.md", message: expect.stringContaining("failed the checks 3 times. one") as string, issues: ["two"] }]);
    expect(listing.summary[0]).toBe("Bees: Anthropic (claude-sonnet-4-5), sent off this machine · 2.0k tokens · ~$0.0123 · 4.3 s");
    expect(listing.calls).toEqual([{ line: "analyze · anthropic (claude-sonnet-4-5) · attempt 1 · ok · 812 ms · 700 in, 90 out", prompt: "Read this note", reply: "{}" }]);
  });

  it("never points a local backend's failure at an API key setting it does not have", () => {
    const local = aReport({ converged: false, stopReason: "error", error: { kind: "request", message: "Ollama refused the request (401)." }, provider: { name: "ollama", mode: "local", isLocal: true, model: "llama3.1:8b" } });
    expect(outcomeNotice("Notes/Wax.md", local).text).not.toMatch(/API key/);
    const api = aReport({ converged: false, stopReason: "error", error: { kind: "request", message: "Anthropic rejected the API key (401)." } });
    expect(outcomeNotice("Notes/Wax.md", api).text).toMatch(/API key in the settings/);
  });

  it("gives a failed ingest Obsidian's advice, not the terminal's", () => {
    const error = summariseError(classifyHttpFailure({ provider: "OpenAI", model: "gpt-x", status: 404 }));
    const report = aReport({ converged: false, stopReason: "error", error });
    const text = outcomeNotice("Notes/Wax.md", report).text;
    expect(text).toContain('pick one the server lists under "Model" in the settings');
    expect(text).not.toContain("synapse models");
    expect(buildResultListing([{ notePath: "Notes/Wax.md", report }], "Ingested").failures[0]?.message).toBe(text);
  });

  it("tells how to bring back a deleted page with the palette command, not a flag", () => {
    const listing = buildResultListing([{ notePath: "Notes/Wax.md", report: aReport({ pages: [{ ...page("wiki/entities/Wax.md", "unchanged"), ...NOT_WRITTEN_AGAIN }] }) }], "Ingested");
    expect(listing.details[0]?.text).toContain('"Re-ingest active note anyway"');
    expect(listing.details[0]?.text).not.toContain("--force");
  });

  it("says in the call log which output limit each attempt asked for, and which one was cut off", () => {
    const listing = buildResultListing(
      [
        {
          notePath: "Notes/Wax.md",
          report: aReport(),
          calls: [
            { provider: "ollama", model: "qwen3:8b", operation: "generate", outcome: "schema", durationMs: 900, attempt: 1, outputLimit: 1000, note: "stopped at the output limit" },
            { provider: "ollama", model: "qwen3:8b", operation: "generate", outcome: "ok", durationMs: 1200, attempt: 1, outputLimit: 2000 },
          ],
        },
      ],
      "Ingested",
    );
    expect(listing.calls.map((c) => c.line)).toEqual([
      "generate · ollama (qwen3:8b) · attempt 1 · failed: schema (stopped at the output limit) · 900 ms · limit 1000",
      "generate · ollama (qwen3:8b) · attempt 1 · ok · 1200 ms · limit 2000",
    ]);
  });

  it("names in the result the user's note that stood in for a page", () => {
    const linkedNotes = [{ title: "Jet Stream", notePath: "Notes/Jet Stream.md", sentence: "Linked to your note [[Jet Stream]] instead of writing a page." }];
    const listing = buildResultListing([{ notePath: "Notes/Weather.md", report: aReport({ linkedNotes }) }], "Ingested");
    expect(listing.details).toEqual([{ path: "Notes/Jet Stream.md", text: "Linked to your note [[Jet Stream]] instead of writing a page." }]);
  });

  it("calls a run on this computer free, never $0.0000 or a price it could not find", () => {
    const ollama = aReport({ converged: false, stopReason: "error", usage: { inputTokens: 0, outputTokens: 0, costUsd: null }, provider: { name: "ollama", mode: "local", isLocal: true, model: "llama3.1:8b" } });
    const offline = aReport({ usage: { inputTokens: 0, outputTokens: 0, costUsd: 0 }, provider: { name: "offline", mode: "local", isLocal: true, model: null } });
    const listing = buildResultListing([{ notePath: "Notes/Wax.md", report: ollama }, { notePath: "Notes/Bees.md", report: offline }], "Ingested");
    expect(listing.summary).toEqual([
      "Wax: Ollama (llama3.1:8b) · 0 tokens · free (runs on this computer) · 4.3 s",
      "Bees: Offline · 0 tokens · free (runs on this computer) · 4.3 s",
    ]);
  });

  it("says a remote model's cost is unknown when it has no price, never a cost it does not know", () => {
    const failed = aReport({ usage: { inputTokens: 10, outputTokens: 0, costUsd: null }, provider: { name: "openai", mode: "api", isLocal: false, model: "mystery-1" } });
    expect(buildResultListing([{ notePath: "Notes/Wax.md", report: failed }], "Ingested").summary[0]).toContain("· cost unknown (no price for model mystery-1) ·");
  });
});

describe("the readiness report in words", () => {
  const base: ReadinessReport = { provider: "ollama", ok: true, reachable: true, version: "0.6.2", models: [], modelPresent: true, details: [], problems: [], contextWindow: 8192 };

  it("says ready, with the version and the context window in use, naming the backend as the settings do", () => {
    const text = describeReadiness({ ...base, models: [{ name: "llama3.2:latest", capabilities: ["completion", "tools"] }], details: ["Ollama 0.6.2 answers at http://127.0.0.1:11434.", "The host is this machine."] });
    expect(text.state).toBe("ready");
    expect(text.headline).toBe("Ready: Ollama 0.6.2 answers, with a context window of up to 8,192 tokens.");
    expect(text.lines).toEqual(["The host is this machine."]);
  });

  it("tells each state apart: not set up, unreachable, model missing", () => {
    const noKey = describeReadiness({ ...base, provider: "anthropic", ok: false, reachable: false, version: null, modelPresent: null, notSetUp: true, problems: ["No Anthropic API key was found."] });
    expect([noKey.state, noKey.headline]).toEqual(["not-set-up", "Anthropic is not set up yet."]);
    const down = describeReadiness({ ...base, ok: false, reachable: false, version: null, modelPresent: null, problems: ["Start Ollama."] });
    expect([down.state, down.headline, down.lines]).toEqual(["unreachable", "Ollama could not be reached.", ["Start Ollama."]]);
    const missing = describeReadiness({ ...base, ok: false, modelPresent: false, problems: ["Run `ollama pull llama3.2`."] });
    expect([missing.state, missing.headline]).toEqual(["model-missing", "Ollama 0.6.2 answers, but the model is missing."]);
  });

  it("keeps to three lines, what to fix first, and never starts with an internal id", () => {
    const text = describeReadiness({ ...base, provider: "claude-agent", ok: false, modelPresent: null, problems: ["One.", "Two.", "Three.", "Four."], details: ["Detail."] });
    expect(text.lines).toEqual(["One.", "Two.", "Three."]);
    expect(text.headline).toBe("The bridge 0.6.2 answers, but is not ready.");
    for (const provider of ["offline", "ollama", "anthropic", "openai", "claude-agent"]) {
      expect(describeReadiness({ ...base, provider }).headline).toMatch(/^[A-Z]/);
      expect(describeReadiness({ ...base, provider, ok: false, reachable: false }).headline).toMatch(/^[A-Z]/);
    }
  });
});
