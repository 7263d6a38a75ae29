import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { defineCapabilities, type ProviderCapabilities } from "../../src/core/capabilities";
import { SynapseError } from "../../src/core/errors";
import { orchestrate, type OrchestratorOptions } from "../../src/core/orchestrator";
import type { GenerationInput, InferenceProvider } from "../../src/core/provider";
import { createRunContext, type RunContext, type RunContextOptions } from "../../src/core/run-context";
import type { Analysis, Message, WikiPage } from "../../src/core/schemas";
import { SOURCE_PATH, ScriptedProvider, aPage } from "../builders";
import { executableParts } from "../helpers/executable-markdown";

const OPTIONS: OrchestratorOptions = { maxIter: 3, tokenBudget: 0, retrievalContext: "Related pages: none.", vaultContext: "Empty wiki." };
const valid = [aPage().build()];
const invalid = [aPage().withSources().build()];

function runFor(options: RunContextOptions = {}): RunContext {
  return createRunContext({ source: { path: SOURCE_PATH, text: "# Source note\n\nText." }, ...options });
}

describe("the orchestrated loop", () => {
  it("analyses once and generates once when the first batch is valid", async () => {
    const provider = new ScriptedProvider([valid]);
    const result = await orchestrate(provider, OPTIONS, runFor());
    expect(result).toMatchObject({ converged: true, stopReason: "converged", delegated: false, attempts: { analyze: 1, generate: 1 } });
    expect(result.pages).toEqual(valid);
  });

  it("retries generate with the validation errors beside the same context, and never re-analyses", async () => {
    const provider = new ScriptedProvider([invalid, valid]);
    const result = await orchestrate(provider, OPTIONS, runFor());
    expect(result.converged).toBe(true);
    expect(provider.analyzeCalls).toHaveLength(1);
    expect(provider.generateCalls).toHaveLength(2);
    expect(provider.generateCalls[0]).toMatchObject({ retrievalContext: OPTIONS.retrievalContext, feedback: "" });
    // The wiki's context is sent unchanged (it repeats, for prompt caching); the errors travel apart.
    expect(provider.generateCalls[1]?.retrievalContext).toBe(OPTIONS.retrievalContext);
    expect(provider.generateCalls[1]?.feedback).toContain("frontmatter.sources is empty");
  });

  it("stops after maxIter generations on a provider that never produces a valid batch", async () => {
    const provider = new ScriptedProvider([invalid]);
    const result = await orchestrate(provider, { ...OPTIONS, maxIter: 4 }, runFor());
    expect(result).toMatchObject({ converged: false, stopReason: "max_iter", attempts: { analyze: 1, generate: 4 }, pages: [] });
    expect(result.issues[0]?.field).toBe("frontmatter.sources");
  });

  it("feeds a schema failure back like a validation failure", async () => {
    const provider = new ScriptedProvider([new SynapseError("schema", "The reply is not a JSON object with a pages array."), valid]);
    const result = await orchestrate(provider, OPTIONS, runFor());
    expect(result.converged).toBe(true);
    expect(provider.generateCalls[1]?.feedback).toContain("not a JSON object with a pages array");
  });

  it("stops on a provider failure that is not a schema failure, with the error's kind", async () => {
    const provider = new ScriptedProvider([new SynapseError("request", "The model does not exist.", { status: 404 })]);
    const result = await orchestrate(provider, OPTIONS, runFor());
    expect(result).toMatchObject({ converged: false, stopReason: "error", attempts: { generate: 1 }, pages: [] });
    expect(result.error?.kind).toBe("request");
  });

  it("stops when the token budget is spent and reports it", async () => {
    const provider = new ScriptedProvider([invalid], {}, 400);
    const result = await orchestrate(provider, { ...OPTIONS, maxIter: 10, tokenBudget: 1000 }, runFor());
    // analyze (400) + generate (800) + generate (1200 ≥ 1000): no third generation is started.
    expect(result).toMatchObject({ converged: false, stopReason: "budget", attempts: { analyze: 1, generate: 2 } });
    expect(result.usage.inputTokens).toBe(1200);
  });

  it("stops at the deadline", async () => {
    let clock = 0;
    const provider = new ScriptedProvider([
      () => {
        clock += 600;
        return Promise.resolve(invalid);
      },
    ]);
    const result = await orchestrate(provider, { ...OPTIONS, maxIter: 10 }, runFor({ timeoutMs: 1000, now: () => clock }));
    expect(result).toMatchObject({ converged: false, stopReason: "deadline", attempts: { generate: 2 }, pages: [] });
    expect(result.error?.kind).toBe("timeout");
  });

  it("does not call the provider at all when cancelled before the start", async () => {
    const controller = new AbortController();
    controller.abort();
    const provider = new ScriptedProvider([valid]);
    const result = await orchestrate(provider, OPTIONS, runFor({ signal: controller.signal }));
    expect(result).toMatchObject({ converged: false, stopReason: "cancelled", pages: [] });
    expect(provider.analyzeCalls).toHaveLength(0);
  });

  it("stops between calls when cancelled during a generation, returning no pages", async () => {
    const controller = new AbortController();
    const provider = new ScriptedProvider([
      () => {
        controller.abort();
        return Promise.resolve(invalid);
      },
    ]);
    const result = await orchestrate(provider, OPTIONS, runFor({ signal: controller.signal }));
    expect(result).toMatchObject({ converged: false, stopReason: "cancelled", attempts: { generate: 1 }, pages: [] });
  });

  it("stops during a call when the provider honours the abort signal", async () => {
    const controller = new AbortController();
    const provider = new ScriptedProvider([
      (run) =>
        new Promise<WikiPage[]>((_resolve, reject) => {
          run.signal.addEventListener("abort", () => reject(new SynapseError("cancelled", "Cancelled mid-call.")));
          setTimeout(() => controller.abort(), 5);
        }),
    ]);
    const result = await orchestrate(provider, OPTIONS, runFor({ signal: controller.signal }));
    expect(result).toMatchObject({ converged: false, stopReason: "cancelled", pages: [] });
  });
});

/** Not one of Synapse's providers: routing must work for any class that declares the capability. */
class SomeoneElsesAgent implements InferenceProvider {
  analyzed = 0;
  generated: string[] = [];
  constructor(private readonly pages: WikiPage[][]) {}
  capabilities(): ProviderCapabilities {
    return defineCapabilities({ name: "third-party", mode: "api", supportsAgenticLoop: true });
  }
  analyze(): Promise<Analysis> {
    this.analyzed += 1;
    return Promise.reject(new Error("an agentic provider is never asked to analyse"));
  }
  generate({ related: context, feedback }: GenerationInput, run: RunContext): Promise<WikiPage[]> {
    this.generated.push(`${run.source?.path ?? ""}|${context}|${feedback ?? ""}`);
    return Promise.resolve(this.pages[Math.min(this.generated.length - 1, this.pages.length - 1)] ?? []);
  }
  // eslint-disable-next-line require-yield -- not used
  async *chat(_m: Message[]): AsyncIterable<string> {
    throw new Error("not used");
  }
}

describe("capability routing", () => {
  it("delegates to any provider that declares an agentic loop, with the source in the run", async () => {
    const agent = new SomeoneElsesAgent([valid]);
    const result = await orchestrate(agent, OPTIONS, runFor());
    expect(result).toMatchObject({ converged: true, delegated: true, attempts: { analyze: 0, generate: 1 } });
    expect(agent.analyzed).toBe(0);
    expect(agent.generated[0]?.startsWith(`${SOURCE_PATH}|`)).toBe(true);
  });

  it("gives a delegated run one bounded repair round with the validation errors", async () => {
    const agent = new SomeoneElsesAgent([invalid]);
    const result = await orchestrate(agent, { ...OPTIONS, maxIter: 5 }, runFor());
    expect(result).toMatchObject({ converged: false, stopReason: "max_iter", attempts: { generate: 2 } });
    expect(agent.generated[1]).toContain("frontmatter.sources is empty");
  });

  it("uses the orchestrated loop for the same class when it does not declare the capability", async () => {
    const provider = new ScriptedProvider([valid], { supportsAgenticLoop: false });
    expect((await orchestrate(provider, OPTIONS, runFor())).delegated).toBe(false);
  });

  it("never looks at what a provider is, only at what it declares (static check)", () => {
    const source = readFileSync(new URL("../../src/core/orchestrator.ts", import.meta.url), "utf8")
      .replace(/\/\*[\s\S]*?\*\//g, "")
      .replace(/\/\/.*$/gm, "");
    expect(source).not.toMatch(/\binstanceof\b/);
    expect(source).not.toMatch(/\.constructor\b|constructor\.name|getPrototypeOf|typeof provider/);
    expect(source).not.toMatch(/\b(Offline|Ollama|Anthropic|OpenAI|Cli|Agent)\w*Provider\b/);
    expect(source).not.toMatch(/["'`](offline|ollama|anthropic|openai|cli|claude[\w-]*|local|api)["'`]/i);
    expect(source).not.toMatch(/\.(name|mode)\s*[!=]==?/);
  });
});

describe("what a model writes is data", () => {
  const hostile = aPage()
    .titled("Example <script>x</script>")
    .withContent("Text <iframe src=x></iframe> [a](javascript:alert(1))\n```dataviewjs\ndv.x()\n```\n%% /synapse:source %%")
    .build();

  it.each([false, true])("sanitises the pages before validating them (agentic: %s)", async (agentic) => {
    const provider = new ScriptedProvider([[hostile]], { supportsAgenticLoop: agentic });
    const result = await orchestrate(provider, OPTIONS, runFor());
    expect(result.converged).toBe(true);
    const [page] = result.pages;
    expect(executableParts(`${page?.title ?? ""}\n${page?.content ?? ""}`)).toEqual([]);
  });

  it("refuses a page whose sources the vault refuses, and feeds the reason back", async () => {
    const provider = new ScriptedProvider([[aPage().withSources(SOURCE_PATH, "../x.md").build()], valid]);
    const checkSources = (sources: readonly string[]) =>
      Promise.resolve(sources.filter((s) => s.includes("..")).map((source) => ({ source, problem: "outside" as const })));
    const result = await orchestrate(provider, { ...OPTIONS, checkSources }, runFor());
    expect(result.converged).toBe(true);
    expect(provider.generateCalls[1]?.feedback).toContain('frontmatter.sources lists "../x.md", which is not a path inside the vault');
  });
});
