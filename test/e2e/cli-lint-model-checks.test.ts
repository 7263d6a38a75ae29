/**
 * `synapse lint --model-checks` in a real process against the scripted OpenAI-compatible server:
 * the estimate alone with --dry-run, then the checks through the real SDK, then a second lint that
 * makes no model call because every pair's verdict is cached.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RecordedRequest, ScriptedServer } from "../helpers/scripted-server";
import { runCli } from "../helpers/run-cli";
import { makeVault } from "../helpers/temp-vault";
import { API_KEY, content, startServer } from "../providers/harness";

const BORN_1815 = "Ada Lovelace was born in 1815 in London.";
const BORN_1816 = "Ada Lovelace was born in 1816 in London.";
const page = (type: string, title: string, body: string) => `---\ntype: ${type}\ntitle: ${title}\nsources: [notes/ada.md]\n---\n\n${body}\n`;

function userText(request: RecordedRequest): string {
  const body = request.body as { messages?: { role: string; content: string }[] };
  return (body.messages ?? []).filter((m) => m.role === "user").map((m) => m.content).join("\n");
}

describe("synapse lint --model-checks (built CLI, scripted OpenAI-compatible server)", () => {
  let server: ScriptedServer;
  beforeAll(async () => {
    server = await startServer("openai");
    server.setScript((request) => {
      const text = userText(request);
      const both = text.includes('Page A: "Ada Lovelace"') && text.includes('Page B: "Lovelace, Ada"');
      return content(both ? JSON.stringify({ contradictions: [{ first: BORN_1815, second: BORN_1816 }], duplicate: true, reason: "Both describe Ada Lovelace." }) : '{"contradictions": [], "duplicate": false, "reason": "Different subjects."}', { input: 300, output: 40 });
    });
  });
  afterAll(() => server.close());

  /** Two pages on Ada Lovelace that disagree on her birth year, a third related one, and the CLI's flags for them. */
  function adaWiki() {
    const vault = makeVault({
      "notes/ada.md": "Ada.",
      "wiki/entities/Ada Lovelace.md": page("entity", "Ada Lovelace", `${BORN_1815} See [[Lovelace, Ada]] and [[Notes on the Engine]].`),
      "wiki/entities/Lovelace, Ada.md": page("entity", "Lovelace, Ada", `${BORN_1816} See [[Ada Lovelace]].`),
      "wiki/concepts/Notes on the Engine.md": page("concept", "Notes on the Engine", "Ada's notes on the engine. See [[Ada Lovelace]]."),
    });
    const flags = ["lint", "--vault", vault, "--model-checks", "--provider", "openai", "--model", "gpt-4.1-mini", "--base-url", `${server.url}/v1`, "--json"];
    return { vault, flags, env: { OPENAI_API_KEY: API_KEY } };
  }

  it("prints only the estimate with --dry-run, then checks the pairs, records the contradiction, and asks nothing the second time", async () => {
    const { flags, env } = adaWiki();

    const dry = await runCli([...flags, "--dry-run"], { env });
    expect(dry.code, dry.stderr).toBe(0);
    const { estimate } = JSON.parse(dry.stdout) as { estimate: Record<string, unknown> };
    expect(estimate).toMatchObject({ model: "gpt-4.1-mini", pairs: 3, cached: 0, toCheck: 3, outputTokens: 2400 });
    expect(server.modelRequests()).toHaveLength(0);

    const run = await runCli(flags, { env });
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toMatch(/^Model checks with gpt-4\.1-mini: 3 pairs of related pages, 0 already checked, 3 to check — about [\d,]+ tokens in and 2,400 out, about \$[\d.]+\.$/m);
    const report = JSON.parse(run.stdout) as { findings: { check: string; page: string; message: string }[]; usage: { inputTokens: number }; modelChecks: Record<string, number>; error: unknown };
    expect(report.error).toBeNull();
    expect(server.modelRequests()).toHaveLength(3);
    // Each reply is capped at the 800 output tokens the estimate reserved for it.
    expect(server.modelRequests().map((r) => (r.body as { max_tokens?: number }).max_tokens)).toEqual([800, 800, 800]);
    expect(report.usage.inputTokens).toBe(900);
    expect(report.modelChecks).toMatchObject({ pairs: 3, checked: 3, cached: 0 });
    const contradiction = report.findings.find((f) => f.check === "contradiction");
    expect(contradiction?.message).toContain(BORN_1815);
    expect(contradiction?.message).toContain(BORN_1816);
    expect(report.findings.find((f) => f.check === "duplicate")?.message).toContain("(model check): Both describe Ada Lovelace.");

    const again = await runCli(flags, { env });
    expect(again.code).toBe(1);
    expect(server.modelRequests()).toHaveLength(3);
    expect((JSON.parse(again.stdout) as { modelChecks: Record<string, number> }).modelChecks).toMatchObject({ cached: 3, toCheck: 0 });
  });

  it("keeps to --max-cost: the pairs its estimate leaves out are named and never sent, and a bad amount is a usage error", async () => {
    const { vault, flags, env } = adaWiki();
    const before = server.modelRequests().length;
    const full = JSON.parse((await runCli([...flags, "--dry-run"], { env })).stdout) as { estimate: { costUsd: number; toCheck: number } };
    expect(full.estimate.toCheck).toBe(3);
    const limit = full.estimate.costUsd / 2;

    const dry = await runCli([...flags, "--dry-run", "--max-cost", String(limit)], { env });
    expect(dry.code, dry.stderr).toBe(0);
    const { estimate } = JSON.parse(dry.stdout) as { estimate: { toCheck: number; overCost: number; costLimitUsd: number; leftOut: string[]; costUsd: number } };
    expect(estimate.costLimitUsd).toBe(limit);
    expect(estimate.overCost).toBeGreaterThan(0);
    expect(estimate.toCheck + estimate.overCost).toBe(3);
    expect(estimate.leftOut).toHaveLength(estimate.overCost);
    expect(estimate.costUsd).toBeLessThanOrEqual(limit);

    const run = await runCli([...flags, "--max-cost", String(limit)], { env });
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toContain(`${estimate.overCost} more left out by the cost limit of $`);
    const report = JSON.parse(run.stdout) as { usage: { costUsd: number }; modelChecks: { checked: number; overCost: number } };
    expect(report.modelChecks).toMatchObject({ checked: estimate.toCheck, overCost: estimate.overCost });
    expect(server.modelRequests().length - before).toBe(estimate.toCheck);
    expect(report.usage.costUsd).toBeLessThanOrEqual(limit);

    // A model with no price behind an OpenAI-compatible server on this machine (127.0.0.1; it may be
    // a proxy to a paid model) is counted as free, and the estimate says so in words and in the JSON.
    const localFlags = ["lint", "--vault", vault, "--model-checks", "--provider", "openai", "--model", "my-local-model", "--base-url", `${server.url}/v1`, "--max-cost", "0.000001"];
    const local = await runCli([...localFlags, "--json", "--dry-run"], { env });
    expect(local.code, local.stderr).toBe(0);
    expect((JSON.parse(local.stdout) as { estimate: Record<string, unknown> }).estimate).toMatchObject({ toCheck: 3, overCost: 0, costUsd: null, treatedAsFree: true });
    const said = await runCli([...localFlags, "--dry-run"], { env });
    expect(said.stdout).toMatch(/free \(runs on this computer\), so the cost limit of \$[\d.]+ counts nothing: no price is known for my-local-model/);

    for (const bad of ["abc", "-1", ""]) {
      const refused = await runCli([...flags, `--max-cost=${bad}`], { env });
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain(`--max-cost takes an amount in US dollars, such as 0.50 (0 for no limit), not "${bad}".`);
    }
    const alone = await runCli(["lint", "--vault", vault, "--max-cost", "1"]);
    expect(alone.code).toBe(2);
    expect(alone.stderr).toContain("--max-cost caps the cost of the model checks; add --model-checks.");
  });

  it("refuses the Offline backend for the model checks with exit 4, and a backend flag without --model-checks with exit 2", async () => {
    const vault = makeVault({ "wiki/concepts/A.md": page("concept", "A", "Text about a thing. [[B]]"), "wiki/concepts/B.md": page("concept", "B", "Text. [[A]]") });
    const offline = await runCli(["lint", "--vault", vault, "--model-checks", "--provider", "offline", "--json"]);
    expect(offline.code).toBe(4);
    expect((JSON.parse(offline.stdout) as { error: { kind: string } }).error.kind).toBe("capability");
    expect((await runCli(["lint", "--vault", vault, "--provider", "openai"])).code).toBe(2);
  });
});
