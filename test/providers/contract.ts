/**
 * The facade contract every adapter passes, against its own scripted server and the real SDK:
 * one `describe` factory, run once per protocol. Each scenario of the issue has a test here, and
 * every test asserts on what was sent as well as on the outcome.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { MemoryRunLogger } from "../../src/core/log";
import { orchestrate, type OrchestratorOptions } from "../../src/core/orchestrator";
import { createRunContext, type ProgressEvent } from "../../src/core/run-context";
import { formatUsageSummary } from "../../src/providers/usage-summary";
import type { Protocol, Reply, ScriptedServer } from "../helpers/scripted-server";

import type { FetchLike } from "../../src/providers/environment";
import { WAIT_MS, eventually } from "../helpers/eventually";
import { API_KEY, MODELS, REPLIES, VALID, collect, content, failure, ingestRun, nodeFetch, promptSent, providerFor, schemaSent, startServer } from "./harness";

/** The output limit a request asked for, wherever the protocol puts it. */
function limitSent(protocol: Protocol, body: unknown): number | undefined {
  const b = body as { options?: { num_predict?: number }; max_tokens?: number; max_completion_tokens?: number };
  if (protocol === "ollama") return b.options?.num_predict;
  return b.max_completion_tokens ?? b.max_tokens;
}

const OPTIONS: OrchestratorOptions = { maxIter: 3, tokenBudget: 0, retrievalContext: "", vaultContext: "" };

/** Model calls the provider makes per orchestrated step (Ollama first reads /api/show once). */
export function describeProviderContract(protocol: Protocol, extra: { hasRefusalSignal: boolean }): void {
  describe(`${protocol} provider contract`, () => {
    let server: ScriptedServer;
    const provider = (options: Parameters<typeof providerFor>[2] = {}) => providerFor(protocol, server, options);
    const modelCalls = () => server.modelRequests();
    /** The prompt tokens the server reported: as scripted, except on Ollama, which counts the prompt it read. */
    const reportedInput = (scripted: number, requests = modelCalls()) =>
      protocol === "ollama" ? requests.reduce((sum, r) => sum + (r.promptEvalCount ?? 0), 0) : scripted * requests.length;
    /** Structured requests stream on every protocol, so a slow model is timed by silence, not by the length of its reply. */
    const structuredStreams = true;

    beforeAll(async () => {
      server = await startServer(protocol);
    });
    afterAll(() => server.close());
    beforeEach(() => {
      server.reset();
      server.setScript(VALID);
    });

    it("converges on valid replies, sending the schema, the model, the key and the source path", async () => {
      const run = ingestRun();
      const result = await orchestrate(provider(), OPTIONS, run);
      expect(result.error).toBeNull();
      expect(result.converged).toBe(true);
      expect(result.attempts).toEqual({ analyze: 1, generate: 1 });
      expect(result.pages.map((p) => p.title)).toEqual(["Introduction to Bases", "Bases"]);
      const [analyze, generate] = modelCalls();
      expect(analyze && generate).toBeTruthy();
      for (const request of [analyze!, generate!]) {
        expect((request.body as { model: string }).model).toBe(MODELS[protocol]);
        expect((request.body as { stream?: boolean }).stream ?? false).toBe(structuredStreams);
        expect(schemaSent(protocol, request.body)).toMatchObject({ type: "object" });
      }
      expect(JSON.stringify(schemaSent(protocol, generate!.body))).toContain('"enum":["entity","concept","source","synthesis","comparison"]');
      expect(promptSent(generate!.body)).toContain('"notes/Introduction to Bases.md"');
      expect(promptSent(analyze!.body)).toContain("Bases is a [[Core plugins|core plugin]]");
      // Anthropic SDK 1.x sends the key as a bearer token (older versions used x-api-key).
      if (protocol === "anthropic") expect(analyze!.headers["x-api-key"] ?? analyze!.headers.authorization).toMatch(new RegExp(`^(Bearer )?${API_KEY}$`));
      if (protocol === "openai") expect(analyze!.headers.authorization).toBe(`Bearer ${API_KEY}`);
      expect(server.requests.some((r) => r.path === "/api/pull")).toBe(false);
      // Usage is on the run's accumulator, per call, and summarised with a price when one is known.
      const input = reportedInput(120, [analyze!, generate!]);
      expect(run.usage.totals()).toEqual({ inputTokens: input, outputTokens: 120, calls: 2, estimatedCalls: 0 });
      expect(run.usage.entries.map((e) => [e.provider, e.operation])).toEqual([
        [protocol, "analyze"],
        [protocol, "generate"],
      ]);
      const summary = formatUsageSummary(run.usage.totals(), MODELS[protocol]);
      expect(summary).toMatch(protocol === "ollama" ? new RegExp(`^${input.toLocaleString("en-US")} in / 120 out tokens, cost unknown \\(no price for model llama3\\.1:8b\\)$`) : /^240 in \/ 120 out tokens, ~\$0\.\d+$/);
    });

    it("retries generate after an invalid reply and converges, feeding the problems back", async () => {
      server.setScript([content(REPLIES.analysis), content(REPLIES.pagesNoSource), content(REPLIES.pages)]);
      const result = await orchestrate(provider(), OPTIONS, ingestRun());
      expect(result.converged).toBe(true);
      expect(result.attempts).toEqual({ analyze: 1, generate: 2 });
      const calls = modelCalls();
      expect(calls).toHaveLength(3);
      expect(promptSent(calls[1]!.body)).not.toContain("Your previous reply was rejected");
      expect(promptSent(calls[2]!.body)).toContain("Your previous reply was rejected");
      expect(promptSent(calls[2]!.body)).toContain('it must list "notes/Introduction to Bases.md"');
    });

    it("stops at maxIter when no reply is ever valid, returning nothing to write", async () => {
      server.setScript([content(REPLIES.analysis), content(REPLIES.pagesNoSource)]);
      const result = await orchestrate(provider(), { ...OPTIONS, maxIter: 2 }, ingestRun());
      expect(result.converged).toBe(false);
      expect(result.stopReason).toBe("max_iter");
      expect(result.pages).toEqual([]);
      expect(result.attempts).toEqual({ analyze: 1, generate: 2 });
      expect(modelCalls()).toHaveLength(3);
    });

    it("treats a well-formed reply that is not JSON as a schema failure the loop can retry", async () => {
      server.setScript([content(REPLIES.analysis), content("I could not find anything worth a page."), content(REPLIES.pages)]);
      const result = await orchestrate(provider(), OPTIONS, ingestRun());
      expect(result.converged).toBe(true);
      expect(result.attempts.generate).toBe(2);
      expect(promptSent(modelCalls()[2]!.body)).toContain("contained no JSON object");
    });

    it("parses fenced JSON with leading prose and <think> blocks", async () => {
      server.setScript([content(REPLIES.analysisThinking), content(REPLIES.pagesFenced)]);
      const result = await orchestrate(provider(), OPTIONS, ingestRun());
      expect(result.error).toBeNull();
      expect(result.converged).toBe(true);
      expect(result.analysis?.title).toBe("Introduction to Bases");
      expect(modelCalls()).toHaveLength(2);
    });

    it("honours retry-after on 429 and converges after the wait", async () => {
      server.setScript([{ kind: "status", status: 429, headers: { "retry-after-ms": "120" } }, ...VALID]);
      const events: ProgressEvent[] = [];
      const result = await orchestrate(provider(), OPTIONS, ingestRun({ progress: (e) => events.push(e) }));
      expect(result.converged).toBe(true);
      const [first, second] = modelCalls();
      expect(second!.at - first!.at).toBeGreaterThanOrEqual(110);
      expect(events).toContainEqual({ type: "retry", attempt: 2, delayMs: 120, reason: "rate_limit" });
    });

    it("gives up on a persistent 429 as rate_limit, keeping the server's retry-after", async () => {
      server.setScript([{ kind: "status", status: 429, headers: { "retry-after": "0" } }]);
      const error = await failure(() => provider().analyze("text", "", ingestRun()));
      expect(error.kind).toBe("rate_limit");
      expect(error.retryAfterMs).toBe(0);
      expect(modelCalls()).toHaveLength(3);
    });

    it("does not wait out a retry-after longer than the policy allows", async () => {
      server.setScript([{ kind: "status", status: 429, headers: { "retry-after": "3600" } }]);
      const error = await failure(() => provider().analyze("text", "", ingestRun()));
      expect(error.kind).toBe("rate_limit");
      expect(error.retryAfterMs).toBe(3_600_000);
      expect(modelCalls()).toHaveLength(1);
    });

    it("retries a 500 and converges", async () => {
      server.setScript([{ kind: "status", status: 500 }, ...VALID]);
      const result = await orchestrate(provider(), OPTIONS, ingestRun());
      expect(result.converged).toBe(true);
      expect(modelCalls()).toHaveLength(3);
    });

    it("reports a persistent 500 as a transport failure after the bounded attempts", async () => {
      server.setScript([{ kind: "status", status: 500 }]);
      const result = await orchestrate(provider(), OPTIONS, ingestRun());
      expect(result.converged).toBe(false);
      expect(result.error?.kind).toBe("transport");
      expect(result.error?.status).toBe(500);
      expect(modelCalls()).toHaveLength(3);
    });

    it("treats 529 (overloaded) as transient and retries it", async () => {
      server.setScript([{ kind: "status", status: 529 }, { kind: "status", status: 529 }, content(REPLIES.analysis)]);
      const run = ingestRun();
      const analysis = await provider().analyze("text", "", run);
      expect(analysis.title).toBe("Introduction to Bases");
      expect(modelCalls()).toHaveLength(3);
      const rejected = await failure(async () => {
        server.setScript([{ kind: "status", status: 529 }]);
        await provider({ retry: { maxAttempts: 1 } }).analyze("text", "", ingestRun());
      });
      expect(rejected.kind).toBe("rate_limit");
    });

    it("does not retry a 401 and names the key without showing it", async () => {
      server.setScript([{ kind: "status", status: 401, message: `Incorrect API key provided: ${API_KEY}` }]);
      const result = await orchestrate(provider(), OPTIONS, ingestRun());
      expect(result.error?.kind).toBe("request");
      // Ollama has no key setting: its 401 comes from a proxy, and the message must not send the
      // user looking for a key field that does not exist.
      if (protocol === "ollama") expect(result.error?.message).toMatch(/^Ollama at http:\/\/127\.0\.0\.1:\d+ refused the request \(401\): .*credentials Synapse cannot send/);
      else expect(result.error?.message).toMatch(/API key/);
      if (protocol === "ollama") expect(result.error?.message.replace(/\(the server said: .*\)/, "")).not.toMatch(/API key|key in the settings/i);
      expect(result.error?.message).not.toContain(API_KEY);
      expect(modelCalls()).toHaveLength(1);
    });

    it("reports an unknown model as a request failure naming the model, without retrying", async () => {
      server.setScript([{ kind: "status", status: 404 }]);
      const p = provider({ model: "no-such-model" });
      const error = await failure(() => p.analyze("text", "", ingestRun()));
      expect(error.kind).toBe("request");
      expect(error.message).toContain('"no-such-model"');
      // Ollama learns it from /api/show before sending the prompt; the others from the model call
      // (after an OpenAI-compatible server is asked for the window of a model it does not document).
      const windowProbes = ["/props", "/api/v0/models", "/v1/models", "/api/show"];
      expect(server.requests.filter((r) => protocol !== "openai" || !windowProbes.includes(r.path))).toHaveLength(1);
      expect(server.requests.some((r) => r.path === "/api/pull")).toBe(false);
    });

    it("times out a slow server per request and never sends the request again unchanged", async () => {
      // Sends are counted where they leave the client: a loaded machine may spend an attempt's half
      // second before its request is sent (seen: two attempts, no send) or before the server has
      // read it (two sent, one read).
      // Ollama reads /api/show before the slow script starts.
      let sends = 0;
      const fetch: FetchLike = (input, init) => {
        const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
        if (server.isModelCall(init?.method ?? "GET", new URL(url).pathname)) sends += 1;
        return nodeFetch(input, init);
      };
      const p = provider({ fetch, requestTimeoutSeconds: 0.5, retry: { maxAttempts: 2, baseDelayMs: 1, jitter: 0 } });
      if (protocol === "ollama") await p.analyze("short", "", ingestRun());
      const warmUp = sends;
      server.reset();
      server.setScript([{ kind: "slow", delayMs: 60_000 }]);
      const events: ProgressEvent[] = [];
      const started = Date.now();
      const error = await failure(() => p.analyze("text", "", ingestRun({ progress: (e) => events.push(e) })));
      expect(error.kind).toBe("timeout");
      // A streamed reply is timed to its first token, one that is not as a whole request.
      expect(error.message).toMatch(structuredStreams ? /First token timeout.*not asked again/ : /Request timeout.*not asked again/);
      expect(Date.now() - started).toBeLessThan(WAIT_MS);
      // On a slow machine the same request would only take as long again: no retry, one send at most
      // (none where the half second ran out before the send).
      expect(events.filter((e) => e.type === "retry")).toEqual([]);
      expect(sends - warmUp).toBeLessThanOrEqual(1);
      await expect.poll(() => modelCalls().every((r) => r.aborted)).toBe(true);
    });

    it("stops at the run's deadline, sending nothing after it", async () => {
      server.setScript([{ kind: "slow", delayMs: 60_000 }]);
      const run = ingestRun({ timeoutMs: 250 });
      // Timed where the request leaves, not where the server reads it (which a loaded machine delays).
      const sentAt: number[] = [];
      const fetch: FetchLike = (input, init) => {
        sentAt.push(Date.now());
        return nodeFetch(input, init);
      };
      // Attempts that cannot run out before the deadline: only the deadline can end this run.
      const result = await orchestrate(provider({ fetch, requestTimeoutSeconds: 60, retry: { maxAttempts: 10_000, baseDelayMs: 1, maxDelayMs: 1, jitter: 0 } }), OPTIONS, run);
      expect(result.stopReason).toBe("deadline");
      expect(result.error?.kind).toBe("timeout");
      expect(sentAt.length).toBeGreaterThan(0);
      // Without the deadline, sends would go on for 10,000 attempts; the second of slack only
      // absorbs a loaded machine's pause between the deadline check and the send.
      for (const at of sentAt) expect(at).toBeLessThanOrEqual((run.deadline ?? 0) + 1_000);
      // Every request the run made is closed by the client (none left running past the run), and
      // nothing was sent once the run had returned.
      const sends = sentAt.length;
      await eventually(() => expect(modelCalls().every((r) => r.aborted)).toBe(true));
      expect(sentAt).toHaveLength(sends);
    });

    it("raises the output limit after a reply cut off at it, uses nothing from the cut reply, and logs it", async () => {
      const cut: Reply = { kind: "content", text: REPLIES.analysis.slice(0, 60), finish: "length" };
      server.setScript([cut, content(REPLIES.analysis)]);
      const log = new MemoryRunLogger();
      const progress: ProgressEvent[] = [];
      const analysis = await provider({ profile: { maxTokens: 1000 } }).analyze("text", "", ingestRun({ log, progress: (e) => progress.push(e) }));
      expect(analysis.title).toBe((JSON.parse(REPLIES.analysis) as { title: string }).title);
      expect(modelCalls().map((r) => limitSent(protocol, r.body))).toEqual([1000, 2000]);
      expect(progress).toContainEqual({ type: "activity", message: expect.stringMatching(/stopped at the 1000-token output limit; trying again with 2000\.$/) as string });
      const attempts = log.events.filter((e) => e.operation === "analyze").map((e) => [e.outcome, e.outputLimit, e.note]);
      expect(attempts).toEqual([
        ["schema", 1000, "stopped at the output limit"],
        ["ok", 2000, undefined],
      ]);
    });

    it("stops raising after a few doublings and names the setting to change", async () => {
      server.setScript([{ kind: "content", text: REPLIES.pages.slice(0, 80), finish: "length" }]);
      // Ollama's raises stop at the context window too: one large enough that only the setting binds.
      const window = protocol === "ollama" ? { contextWindow: 32_768 } : {};
      const error = await failure(() => provider({ profile: { maxTokens: 1000, ...window } }).analyze("text", "", ingestRun()));
      expect(error.kind).toBe("schema");
      const section = { ollama: "Local: Ollama", anthropic: "API: Anthropic", openai: "API: OpenAI-compatible" }[protocol];
      expect(error.message).toMatch(new RegExp(`stopped at the 8000-token output limit before it was complete; nothing from it is used\\. Raise "Max output tokens" under ${section} in the settings\\.$`));
      expect(modelCalls().map((r) => limitSent(protocol, r.body))).toEqual([1000, 2000, 4000, 8000]);
    });

    it("never raises the output limit past what the model declares", async () => {
      const probe = provider();
      if (protocol === "ollama") await probe.analyze("short", "", ingestRun()); // learns the context from /api/show
      const declared = probe.capabilities().maxOutputTokens;
      expect(declared).toBeGreaterThan(1000);
      server.reset();
      server.setScript([{ kind: "content", text: REPLIES.analysis.slice(0, 60), finish: "length" }]);
      const error = await failure(() => provider({ profile: { maxTokens: declared - 1 } }).analyze("text", "", ingestRun()));
      const sent = modelCalls().map((r) => limitSent(protocol, r.body) ?? 0);
      if (protocol === "ollama") {
        // The analysis asks for its own step's limit; the raises stop where the prompt and the
        // reply fill the window the request may ask for.
        expect(sent.slice(0, 3)).toEqual([1024, 2048, 4096]);
        expect(sent[3]).toBeLessThan(declared);
        const numCtx = (modelCalls()[3]!.body as { options: { num_ctx: number } }).options.num_ctx;
        expect(numCtx).toBe(declared);
        expect(error.message).toMatch(/filled the 8192-token context window; raise "Context window" under Local: Ollama/);
        return;
      }
      expect(sent).toEqual([declared - 1, declared]);
      expect(error.message).toMatch(/That is (the most .* declares|the model's whole context); ingest a shorter note\.$/);
    });

    it("sends no generate request once the token budget is spent", async () => {
      // The reply's own output spends the budget: Ollama reports the prompt it really read, which a
      // short fixture note keeps well under it.
      server.setScript([content(REPLIES.analysis, { input: 900, output: 1_100 }), content(REPLIES.pages)]);
      const result = await orchestrate(provider(), { ...OPTIONS, tokenBudget: 1_000 }, ingestRun());
      expect(result.stopReason).toBe("budget");
      expect(result.attempts).toEqual({ analyze: 1, generate: 0 });
      expect(modelCalls()).toHaveLength(1);
    });

    it("retries a reply cut mid-JSON as a transport failure", async () => {
      server.setScript([{ kind: "cut", text: REPLIES.analysis, afterChars: 40 }, content(REPLIES.analysis)]);
      const analysis = await provider().analyze("text", "", ingestRun());
      expect(analysis.language).toBe("en");
      expect(modelCalls()).toHaveLength(2);
    });

    it("reports a wrong envelope as transport, not schema", async () => {
      server.setScript([{ kind: "raw", body: JSON.stringify({ result: "ok", text: REPLIES.analysis }) }]);
      const error = await failure(() => provider().analyze("text", "", ingestRun()));
      expect(error.kind).toBe("transport");
      expect(error.message).toMatch(/not the expected format/);
      expect(modelCalls()).toHaveLength(3);
      server.reset();
      server.setScript([{ kind: "raw", body: "<html><body>Welcome to nginx!</body></html>", contentType: "text/html" }]);
      const html = await failure(() => provider({ retry: { maxAttempts: 1 } }).analyze("text", "", ingestRun()));
      expect(html.kind).toBe("transport");
    });

    if (extra.hasRefusalSignal) {
      it("reports the provider's refusal signal as refusal, without retrying", async () => {
        server.setScript([content(REPLIES.analysis), { kind: "refusal", text: "I can't help with that." }]);
        const result = await orchestrate(provider(), OPTIONS, ingestRun());
        expect(result.error?.kind).toBe("refusal");
        expect(result.attempts).toEqual({ analyze: 1, generate: 1 });
        expect(modelCalls()).toHaveLength(2);
      });

      it("reports a refusal in a streamed chat", async () => {
        server.setScript([{ kind: "refusal", text: "I can't help with that." }]);
        const error = await failure(() => collect(provider().chat([{ role: "user", content: "hi" }], "", createRunContext())));
        expect(error.kind).toBe("refusal");
      });
    } else {
      it("never guesses a refusal from prose: a declining reply is a schema failure", async () => {
        server.setScript([{ kind: "refusal" }]);
        const error = await failure(() => provider().analyze("text", "", ingestRun()));
        expect(error.kind).toBe("schema");
        expect(modelCalls()).toHaveLength(1);
      });
    }

    it("streams a chat as content only and records its usage", async () => {
      const answer = "Bases shows notes as tables or cards, see [[Bases]].";
      server.setScript([content(answer, { input: 30, output: 12 })]);
      const run = createRunContext();
      const parts: string[] = [];
      for await (const part of provider().chat([{ role: "user", content: "What is a base?" }], "Bases: views of notes.", run)) parts.push(part);
      expect(parts.length).toBeGreaterThan(1);
      expect(parts.join("")).toBe(answer);
      const [request] = modelCalls();
      expect((request!.body as { stream: boolean }).stream).toBe(true);
      expect(promptSent(request!.body)).toContain("Bases: views of notes.");
      expect(run.usage.totals()).toEqual({ inputTokens: reportedInput(30), outputTokens: 12, calls: 1, estimatedCalls: 0 });
    });

    it("caps a chat reply at the run's output limit on the wire, lowering the configured one, never raising it", async () => {
      const ask = async (run = createRunContext(), options: Parameters<typeof providerFor>[2] = {}) => {
        server.reset();
        server.setScript([content("Short.")]);
        await collect(provider(options).chat([{ role: "user", content: "hi" }], "", run));
        return limitSent(protocol, modelCalls()[0]!.body);
      };
      expect(await ask(createRunContext({ maxOutputTokens: 800 }))).toBe(800);
      expect(await ask(createRunContext({ maxOutputTokens: 800 }), { profile: { maxTokens: 500 } })).toBe(500);
      // Without a cap a chat keeps the configured limit; Ollama's answers have their step's own (never unbounded).
      expect(await ask()).toBe(protocol === "ollama" ? 1024 : 8192);
    });

    it("fails a chat stream cut mid-JSON as transport after showing what arrived", async () => {
      server.setScript([{ kind: "cut", text: "The first part arrives, then the line is cut.", afterChars: 32 }]);
      const seen: string[] = [];
      const error = await failure(async () => {
        for await (const part of provider().chat([{ role: "user", content: "hi" }], "", createRunContext())) seen.push(part);
      });
      expect(error.kind).toBe("transport");
      expect(seen.join("")).toBe("The first part arrives, then the");
      // What was shown cannot be taken back, so a broken stream is not retried.
      expect(modelCalls()).toHaveLength(1);
    });

    it("retries a chat that fails before its first token", async () => {
      server.setScript([{ kind: "status", status: 500 }, content("Second time lucky.")]);
      expect(await collect(provider().chat([{ role: "user", content: "hi" }], "", createRunContext()))).toBe("Second time lucky.");
      expect(modelCalls()).toHaveLength(2);
    });

    it("cancels mid-stream and closes the connection", async () => {
      server.setScript([{ kind: "stall", text: "A long answer that never finishes" }]);
      const controller = new AbortController();
      const seen: string[] = [];
      const error = await failure(async () => {
        for await (const part of provider().chat([{ role: "user", content: "hi" }], "", createRunContext({ signal: controller.signal }))) {
          seen.push(part);
          controller.abort();
        }
      });
      expect(error.kind).toBe("cancelled");
      expect(seen.length).toBeGreaterThanOrEqual(1);
      await expect.poll(() => modelCalls()[0]?.aborted).toBe(true);
      expect(modelCalls()).toHaveLength(1);
    });

    it("closes the connection when the caller stops reading", async () => {
      server.setScript([{ kind: "stall", text: "Plenty of text to read here" }]);
      for await (const part of provider().chat([{ role: "user", content: "hi" }], "", createRunContext())) {
        expect(part.length).toBeGreaterThan(0);
        break;
      }
      await expect.poll(() => modelCalls()[0]?.aborted).toBe(true);
    });

    it("cancels a request in flight", async () => {
      server.setScript([{ kind: "slow", delayMs: 60_000 }]);
      const controller = new AbortController();
      const pending = failure(() => provider().analyze("text", "", ingestRun({ signal: controller.signal })));
      // Cancelled once the server holds the request, however long that took to happen.
      await expect.poll(() => modelCalls().length).toBe(1);
      controller.abort();
      const error = await pending;
      expect(error.kind).toBe("cancelled");
      expect(modelCalls()).toHaveLength(1);
      await expect.poll(() => modelCalls()[0]?.aborted).toBe(true);
    });

    it("refuses a request the provider does not claim to support without touching the network", async () => {
      const noModel = await failure(() => provider({ model: "" }).analyze("text", "", ingestRun()));
      expect(noModel.kind).toBe("config");
      const p = provider();
      if (protocol === "ollama") await p.analyze("short", "", ingestRun()); // learns the context window from /api/show
      server.reset();
      const maxContext = p.capabilities().maxContext;
      expect(maxContext).toBeGreaterThan(0);
      // The note would be packed into the window; what the wiki holds is not, and cannot fit.
      const tooLong = await failure(() => p.analyze("short", "word ".repeat(maxContext), ingestRun()));
      expect(tooLong.kind).toBe("capability");
      expect(server.requests).toHaveLength(0);
    });

    it("keeps advanced options from overriding the model, messages, schema or streaming", async () => {
      const options = { model: "evil-model", stream: true, messages: "none", temperature: 0.25 };
      const p = provider({ profile: { options } });
      await p.analyze("text", "", ingestRun());
      const body = modelCalls()[0]!.body as Record<string, unknown>;
      expect(body.model).toBe(MODELS[protocol]);
      expect(body.stream ?? false).toBe(structuredStreams);
      expect(Array.isArray(body.messages)).toBe(true);
      expect(schemaSent(protocol, body)).not.toBeNull();
      const temperature = protocol === "ollama" ? (body.options as Record<string, unknown>).temperature : body.temperature;
      expect(temperature).toBe(0.25);
    });

    it("logs metadata only, unless content capture is on, and never the key", async () => {
      const quiet = new MemoryRunLogger(false);
      await orchestrate(provider(), OPTIONS, ingestRun({ log: quiet }));
      const events = quiet.events.filter((e) => e.operation !== "readiness");
      const [analyzed, generated] = modelCalls();
      expect(events.map((e) => [e.provider, e.model, e.operation, e.outcome, e.inputTokens, e.outputTokens])).toEqual([
        [protocol, MODELS[protocol], "analyze", "ok", reportedInput(120, [analyzed!]), 60],
        [protocol, MODELS[protocol], "generate", "ok", reportedInput(120, [generated!]), 60],
      ]);
      expect(quiet.events.every((e) => e.content === undefined && e.durationMs >= 0)).toBe(true);

      server.setScript(VALID);
      const chatty = new MemoryRunLogger(true);
      const secretNote = `${"A long note. ".repeat(400)} The key is ${API_KEY}.`;
      await provider().analyze(secretNote, "", ingestRun({ log: chatty }));
      const captured = chatty.events.find((e) => e.operation === "analyze")?.content;
      expect(captured?.prompt).toContain("A long note.");
      expect(captured?.prompt).toMatch(/more characters\]$/);
      expect(JSON.stringify(chatty.events)).not.toContain(API_KEY);
    });

    it("logs each failed attempt with its outcome", async () => {
      server.setScript([{ kind: "status", status: 500 }, content(REPLIES.analysis)]);
      const log = new MemoryRunLogger();
      await provider().analyze("text", "", ingestRun({ log }));
      const attempts = log.events.filter((e) => e.operation === "analyze").map((e) => [e.attempt, e.outcome]);
      expect(attempts).toEqual([
        [1, "transport"],
        [2, "ok"],
      ]);
    });
  });
}

/** Replies a protocol's tests can reuse. */
export type { Reply };
