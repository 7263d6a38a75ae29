/**
 * A dead embedding server is asked again within the session: vector search goes off with one
 * notice, the server is retried after 30 s, 2 min, then every 10 min (an injected clock: the test
 * fires each retry itself), and when it comes back — one scripted server the test switches between
 * refusing and answering, so no other process can take its port meanwhile — the notes changed
 * meanwhile are embedded and one more notice says vector search is back on. While a retry's probe
 * is unanswered, vector search stays off: a search neither waits on the server nor fails again.
 */
import type { RequestUrlParam } from "obsidian";
import { afterEach, describe, expect, it, vi } from "vitest";
import { BACK_ON_MESSAGE, type Schedule } from "../../src/obsidian/index-embedding-pass";
import { startScriptedServer, type EmbedReply, type ScriptedServer } from "../helpers/scripted-server";
import { nodeRequestUrl } from "./node-request-url";
import { loadPlugin, type Harness } from "./plugin-harness";
import { readyIndex } from "../helpers/index-internals";

const transport = vi.hoisted(() => ({ requestUrl: null as null | ((p: RequestUrlParam) => Promise<unknown>) }));
vi.mock("obsidian", async (importOriginal) => {
  const original = await importOriginal<typeof import("obsidian")>();
  return { ...original, requestUrl: (p: RequestUrlParam) => (transport.requestUrl ? transport.requestUrl(p) : original.requestUrl(p)) };
});

const MODELS = [{ name: "nomic-embed-text:latest", capabilities: ["embedding"] }];
let servers: ScriptedServer[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(servers.map((s) => s.close().catch(() => undefined)));
  servers = [];
});

/** A clock the test turns: every scheduled retry waits in `due` until the test fires it. */
function fakeClock(): { schedule: Schedule; due: { ms: number; run: () => void; cancelled: boolean }[]; fireNext(): void } {
  const due: { ms: number; run: () => void; cancelled: boolean }[] = [];
  return {
    due,
    schedule: (ms, run) => {
      const timer = { ms, run, cancelled: false };
      due.push(timer);
      return () => void (timer.cancelled = true);
    },
    fireNext() {
      const next = due.find((t) => !t.cancelled && t.run !== noop);
      if (!next) throw new Error("No retry is scheduled.");
      const run = next.run;
      next.run = noop;
      run();
    },
  };
}
const noop = () => undefined;

async function aServer(): Promise<ScriptedServer> {
  const server = await startScriptedServer({ protocol: "ollama", models: MODELS });
  servers.push(server);
  return server;
}

/**
 * The server refusing: 503 with a retry-after longer than the provider waits (60 s), so each
 * request fails at once instead of after the provider's own backoff — the test is about the
 * plugin's retries, and stays quick.
 */
const DOWN: EmbedReply = { kind: "status", status: 503, message: "Ollama is restarting", headers: { "retry-after": "3600" } };
const UP: EmbedReply = { kind: "vectors" };
const isProbe = (body: unknown) => JSON.stringify((body as { input?: unknown }).input) === JSON.stringify(["Synapse"]);

function notes(n: number): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 0; i < n; i++) files[`notes/Note ${i}.md`] = `# Note ${i}\n\nPlain words about gardening and compost, marker${i}.\n`;
  return files;
}

const vectorNotices = (harness: Harness) => harness.notices.filter((n) => /vector search/i.test(n));
const OFF = /^Synapse: Vector search is off for now \(.+\); search uses text and links only\.$/;

describe("a dead embedding server is retried with backoff", () => {
  it("goes off with one notice, retries after 30 s, 2 min, 10 min, and comes back with one notice", async () => {
    transport.requestUrl = nodeRequestUrl([]);
    const server = await aServer();
    server.setEmbed([DOWN]); // down from the start
    const clock = fakeClock();
    const harness = await loadPlugin({ files: notes(6), data: { embedding: { provider: "ollama", model: "nomic-embed-text" }, profiles: { ollama: { host: server.url } } }, seams: { schedule: clock.schedule } });
    harness.app.workspace.setLayoutReady__();
    const service = harness.plugin.index;
    await service?.embedded();
    const index = await readyIndex(service);
    expect(vectorNotices(harness)).toHaveLength(1);
    expect(vectorNotices(harness)[0]).toMatch(OFF);
    expect(clock.due.map((t) => t.ms)).toEqual([30_000]);

    // Still dead: no second notice, and the next retry waits longer.
    clock.fireNext();
    await service?.embedded();
    clock.fireNext();
    await service?.embedded();
    expect(clock.due.map((t) => t.ms)).toEqual([30_000, 120_000, 600_000]);
    expect(vectorNotices(harness)).toHaveLength(1);
    expect(index?.vectors?.index.noteCount).toBe(0);

    // Edited while the server was away: embedded once it is back, with everything else.
    await harness.app.vault.modify(harness.app.vault.getFileByPath("notes/Note 2.md") as never, "# Note 2\n\nNow about beekeeping.\n");
    await service?.retriever();
    server.setEmbed([UP]);
    clock.fireNext();
    await service?.embedded();
    expect(vectorNotices(harness)).toEqual([expect.stringMatching(OFF), `Synapse: ${BACK_ON_MESSAGE}`]);
    expect(index?.vectors?.index.noteCount).toBe(6);
    const inputs = server.embedRequests().flatMap((r) => (r.body as { input: string[] }).input);
    expect(inputs).toContain("# Note 2\n\nNow about beekeeping.");
    expect(clock.due.filter((t) => !t.cancelled && t.run !== noop)).toEqual([]);

    // A search now finds by meaning again; a later failure (in a search) is a new outage: one notice, retries from 30 s.
    expect((await (await service?.retriever())?.retrieve("marker4", { scope: { kind: "all" }, limit: 1 }))?.[0]?.path).toBe("notes/Note 4.md");
    expect(server.embedRequests().at(-1)?.body).toMatchObject({ input: ["marker4"] });
    server.setEmbed([DOWN]);
    expect((await (await service?.retriever())?.retrieve("marker5", { scope: { kind: "all" }, limit: 1 }))?.[0]?.path).toBe("notes/Note 5.md");
    expect(vectorNotices(harness)).toHaveLength(3);
    expect(vectorNotices(harness)[2]).toMatch(OFF);
    expect(clock.due.at(-1)?.ms).toBe(30_000);

    // Unloading cancels the retry that was due.
    await service?.dispose();
    expect(clock.due.at(-1)?.cancelled).toBe(true);
  });

  it("a server that answers the retry's probe but fails the pass stays off without another notice", async () => {
    transport.requestUrl = nodeRequestUrl([]);
    const server = await aServer();
    const missing = { kind: "status", status: 404, message: 'model "nomic-embed-text" not found, try pulling it first' } as const;
    server.setEmbed([missing]);
    const clock = fakeClock();
    const harness = await loadPlugin({ files: notes(3), data: { embedding: { provider: "ollama", model: "nomic-embed-text" }, profiles: { ollama: { host: server.url } } }, seams: { schedule: clock.schedule } });
    harness.app.workspace.setLayoutReady__();
    await harness.plugin.index?.embedded();
    expect(vectorNotices(harness)).toHaveLength(1);
    // The probe (one text) is answered; the pass's batch is not.
    server.setEmbed((request) => ((request.body as { input: string[] }).input.length === 1 ? { kind: "vectors" } : missing));
    for (let i = 0; i < 3; i++) {
      clock.fireNext();
      await harness.plugin.index?.embedded();
    }
    expect(vectorNotices(harness)).toHaveLength(1);
    // Every 10 min from the third retry on.
    expect(clock.due.map((t) => t.ms)).toEqual([30_000, 120_000, 600_000, 600_000]);
    expect((await readyIndex(harness.plugin.index))?.vectors?.index.noteCount).toBe(0);
  });
  it("keeps vector search off while a retry's probe hangs: a search neither embeds nor fails again", async () => {
    transport.requestUrl = nodeRequestUrl([]);
    const server = await aServer();
    const clock = fakeClock();
    const harness = await loadPlugin({ files: notes(3), data: { embedding: { provider: "ollama", model: "nomic-embed-text" }, profiles: { ollama: { host: server.url } } }, seams: { schedule: clock.schedule } });
    harness.app.workspace.setLayoutReady__();
    const service = harness.plugin.index;
    await service?.embedded();
    const index = await readyIndex(service);
    expect(index?.vectors?.index.noteCount).toBe(3);

    // The server goes down: a search's query embedding fails, vector search goes off.
    server.setEmbed([DOWN]);
    const search = async (query: string) => (await (await service?.retriever())?.retrieve(query, { scope: { kind: "all" }, limit: 1 }))?.[0]?.path;
    expect(await search("marker1")).toBe("notes/Note 1.md");
    expect(vectorNotices(harness)).toEqual([expect.stringMatching(OFF)]);
    expect(clock.due.map((t) => t.ms)).toEqual([30_000]);

    /** The next probe hangs until the test says how it ends (`reached` once it is at the server); other requests get `others`. */
    const holdProbe = (others: EmbedReply) => {
      let answer: (reply: EmbedReply) => void = () => undefined;
      const until = new Promise<EmbedReply>((resolve) => (answer = resolve));
      let arrived: () => void = () => undefined;
      const reached = new Promise<void>((resolve) => (arrived = resolve));
      server.setEmbed((request) => {
        if (!isProbe(request.body)) return others;
        arrived();
        return { kind: "held", until };
      });
      return { answer, reached };
    };

    // The first retry's probe hangs, then fails. Meanwhile a search answers from text and links
    // without asking the server (which fails everything else), an edit waits, and the outage
    // counts once: the next wait is 2 min, scheduled only when the probe fails.
    const first = holdProbe(DOWN);
    clock.fireNext();
    await first.reached;
    const sent = server.embedRequests().length;
    expect(await search("marker1")).toBe("notes/Note 1.md");
    await harness.app.vault.modify(harness.app.vault.getFileByPath("notes/Note 2.md") as never, "# Note 2\n\nNow about beekeeping.\n");
    await service?.retriever();
    expect(server.embedRequests()).toHaveLength(sent);
    expect(clock.due.map((t) => t.ms)).toEqual([30_000]);
    expect(index?.vectors?.active).toBe(false);
    first.answer(DOWN);
    await service?.embedded();
    expect(clock.due.map((t) => t.ms)).toEqual([30_000, 120_000]);
    expect(vectorNotices(harness)).toHaveLength(1);

    // The second retry's probe hangs, then is answered: only then do vectors come back, with the edit.
    const second = holdProbe(UP);
    clock.fireNext();
    await second.reached;
    expect(index?.vectors?.active).toBe(false);
    expect(server.embedRequests()).toHaveLength(sent + 1);
    second.answer(UP);
    await service?.embedded();
    expect(vectorNotices(harness)).toEqual([expect.stringMatching(OFF), `Synapse: ${BACK_ON_MESSAGE}`]);
    expect(index?.vectors?.index.noteCount).toBe(3);
    expect(server.embedRequests().flatMap((r) => (r.body as { input: string[] }).input)).toContain("# Note 2\n\nNow about beekeeping.");
    expect(await search("beekeeping")).toBe("notes/Note 2.md");
    expect(clock.due.filter((t) => !t.cancelled && t.run !== noop)).toEqual([]);
  });
});
