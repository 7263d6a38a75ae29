import { describe, expect, it } from "vitest";
import { IngestQueue, type QueueSnapshot } from "../../src/obsidian/ingest-queue";
import { eventually } from "../helpers/eventually";

/** A job that runs until released or aborted, recording when it started. */
function gate() {
  let release!: (value: string) => void;
  const started: string[] = [];
  const run = (name: string) => (signal: AbortSignal) => {
    started.push(name);
    return new Promise<string>((resolve) => {
      release = resolve;
      signal.addEventListener("abort", () => resolve(`${name} cancelled`), { once: true });
    });
  };
  return { run, started, release: (value: string) => release(value) };
}

describe("the ingest queue", () => {
  it("runs one job at a time, in order", async () => {
    const queue = new IngestQueue<string>();
    const g = gate();
    const a = queue.enqueue({ key: "a.md", group: "a", run: g.run("a") });
    const b = queue.enqueue({ key: "b.md", group: "b", run: g.run("b") });
    await eventually(() => expect(g.started).toEqual(["a"]));
    expect(queue.snapshot().queued).toBe(1);
    g.release("a done");
    expect(await a).toEqual({ status: "done", result: "a done" });
    await eventually(() => expect(g.started).toEqual(["a", "b"]));
    g.release("b done");
    expect(await b).toEqual({ status: "done", result: "b done" });
    await queue.idle();
    expect(queue.busy).toBe(false);
  });

  it("joins a note that is already running or waiting instead of running it twice", async () => {
    const queue = new IngestQueue<string>();
    const g = gate();
    const first = queue.enqueue({ key: "a.md", group: "1", run: g.run("a") });
    const again = queue.enqueue({ key: "a.md", group: "2", run: g.run("a again") });
    expect(queue.has("a.md")).toBe(true);
    await eventually(() => expect(g.started).toEqual(["a"]));
    g.release("once");
    expect(await first).toEqual(await again);
    expect(g.started).toEqual(["a"]);
  });

  it("cancel stops the running job and drops the waiting jobs of its batch only", async () => {
    const queue = new IngestQueue<string>();
    const g = gate();
    const a = queue.enqueue({ key: "a.md", group: "folder", run: g.run("a") });
    const b = queue.enqueue({ key: "b.md", group: "folder", run: g.run("b") });
    const c = queue.enqueue({ key: "c.md", group: "single", run: g.run("c") });
    await eventually(() => expect(g.started).toEqual(["a"]));
    expect(queue.cancelRunning()).toBe(true);
    expect(await a).toEqual({ status: "done", result: "a cancelled" });
    expect(await b).toEqual({ status: "cancelled" });
    await eventually(() => expect(g.started).toEqual(["a", "c"]));
    g.release("c done");
    expect(await c).toEqual({ status: "done", result: "c done" });
    expect(queue.cancelRunning()).toBe(false);
  });

  it("reports a job that throws as failed and goes on with the next", async () => {
    const queue = new IngestQueue<string>();
    const boom = queue.enqueue({ key: "x.md", group: "x", run: () => Promise.reject(new Error("bug")) });
    const next = queue.enqueue({ key: "y.md", group: "y", run: () => Promise.resolve("fine") });
    expect(await boom).toMatchObject({ status: "failed" });
    expect(await next).toEqual({ status: "done", result: "fine" });
  });

  it("tells subscribers about progress while a job runs", async () => {
    const queue = new IngestQueue<string>();
    const seen: QueueSnapshot[] = [];
    queue.subscribe((s) => seen.push(s));
    await queue.enqueue({
      key: "notes/a.md",
      group: "a",
      run: (_signal, progress) => {
        progress({ type: "phase", phase: "analysing" });
        progress({ type: "usage", inputTokens: 100, outputTokens: 20 });
        return Promise.resolve("ok");
      },
    });
    const running = seen.map((s) => s.running).filter((r) => r !== null);
    expect(running.at(-1)).toMatchObject({ label: "a", phase: "analysing", inputTokens: 100, outputTokens: 20 });
    expect(seen.at(-1)).toEqual({ running: null, queued: 0 });
  });

  it("cancelAll empties the queue and stops the running job", async () => {
    const queue = new IngestQueue<string>();
    const g = gate();
    const a = queue.enqueue({ key: "a.md", group: "a", run: g.run("a") });
    const b = queue.enqueue({ key: "b.md", group: "b", run: g.run("b") });
    await eventually(() => expect(g.started).toEqual(["a"]));
    queue.cancelAll();
    expect(await a).toEqual({ status: "done", result: "a cancelled" });
    expect(await b).toEqual({ status: "cancelled" });
    await queue.idle();
    expect(g.started).toEqual(["a"]);
  });
});
