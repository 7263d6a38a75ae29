/** The scripted Ollama server behaves as Ollama's API docs say: checked over plain HTTP, no SDK. */
import { afterEach, describe, expect, it } from "vitest";
import { startScriptedServer, type ScriptedServer, type ScriptedServerOptions } from "./scripted-server";
import { eventually } from "./eventually";

interface Line {
  readonly message?: { readonly content?: string };
  readonly done?: boolean;
  readonly done_reason?: string;
  readonly prompt_eval_count?: number;
}

let server: ScriptedServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

async function start(options: Partial<ScriptedServerOptions> = {}): Promise<ScriptedServer> {
  server = await startScriptedServer({ protocol: "ollama", script: [{ kind: "content", text: "x".repeat(80) }], models: [{ name: "m" }], ...options });
  return server;
}

const chat = (s: ScriptedServer, body: Record<string, unknown>, signal?: AbortSignal) =>
  fetch(`${s.url}/api/chat`, { method: "POST", body: JSON.stringify({ model: "m", messages: [{ role: "user", content: "y".repeat(400) }], ...body }), ...(signal ? { signal } : {}) });

async function lines(response: Response): Promise<Line[]> {
  return (await response.text())
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Line);
}

describe("the scripted Ollama server", () => {
  it("streams NDJSON unless told not to", async () => {
    const s = await start();
    const streamed = await lines(await chat(s, {}));
    expect(streamed.length).toBeGreaterThan(2);
    expect(streamed.at(-1)).toMatchObject({ done: true, done_reason: "stop" });
    const whole = (await (await chat(s, { stream: false })).json()) as Line;
    expect(whole).toMatchObject({ done: true, message: { content: "x".repeat(80) } });
  });

  it("runs a request without num_ctx in its default window, cutting a longer prompt and reporting what it kept", async () => {
    const s = await start({ defaultNumCtx: 64 });
    const cut = await lines(await chat(s, {}));
    expect(s.modelRequests()[0]).toMatchObject({ promptTokens: 104, numCtx: 64, promptCut: true });
    expect(cut.at(-1)?.prompt_eval_count).toBe(48);
    const whole = await lines(await chat(s, { options: { num_ctx: 256 } }));
    expect(s.modelRequests()[1]).toMatchObject({ promptTokens: 104, numCtx: 256, promptCut: false });
    expect(whole.at(-1)?.prompt_eval_count).toBe(104);
  });

  it("stops a reply at num_predict with done_reason length", async () => {
    const s = await start();
    const reply = await lines(await chat(s, { options: { num_predict: 3 } }));
    expect(reply.map((l) => l.message?.content ?? "").join("")).toBe("x".repeat(12));
    expect(reply.at(-1)?.done_reason).toBe("length");
  });

  it("answers one model request at a time: the next waits until the previous is over", async () => {
    const s = await start({ script: [{ kind: "stall", text: "a reply that never ends" }, { kind: "content", text: "after" }] });
    const controller = new AbortController();
    const first = await chat(s, {}, controller.signal);
    await first.body!.getReader().read();
    const second = chat(s, {}).then(lines);
    await eventually(() => expect(s.modelRequests()).toHaveLength(2));
    // Received, and waiting: no reply has been chosen for it while the first holds the model.
    expect(s.modelRequests()[1]!.reply).toBeNull();
    controller.abort();
    expect((await second).map((l) => l.message?.content ?? "").join("")).toBe("after");
  });

  it("stops generating when the client goes away, and serves the next request", async () => {
    const s = await start({ tokensPerSecond: 50, script: [{ kind: "content", text: "z".repeat(4000) }] });
    const controller = new AbortController();
    const response = await chat(s, {}, controller.signal);
    const reader = response.body!.getReader();
    await reader.read();
    controller.abort();
    await eventually(() => expect(s.modelRequests()[0]?.aborted).toBe(true));
    s.setScript([{ kind: "content", text: "after" }]);
    const next = await lines(await chat(s, {}));
    expect(next.map((l) => l.message?.content ?? "").join("")).toBe("after");
  });
});
