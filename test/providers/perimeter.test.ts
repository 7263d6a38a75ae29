/**
 * The privacy perimeter, proven on the wire: with local-only mode or an excluded folder, NO request
 * reaches the scripted server — neither through `Perimeter.guard` nor through the ingest pipeline.
 * The remote providers are pointed at a public-looking host; the injected transport would deliver
 * to the scripted server, so anything that slipped through would be recorded.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { Perimeter } from "../../src/core/perimeter";
import { createRunContext } from "../../src/core/run-context";
import { createProvider } from "../../src/providers/factory";
import { NodeVault } from "../../src/vault/node-vault";
import { ingestNote } from "../../src/wiki/ingest-note";
import type { Protocol, ScriptedServer } from "../helpers/scripted-server";
import { NOTE_PATH, VALID, collect, envFor, failure, ingestRun, noteText, redirectingFetch, startServer } from "./harness";

const REMOTE: Record<Protocol, string> = {
  ollama: "http://gpu-box.example.net:11434",
  anthropic: "https://api.anthropic.com",
  openai: "https://openrouter.ai/api/v1",
};

describe.each(["ollama", "anthropic", "openai"] as const)("privacy perimeter with %s", (protocol) => {
  let server: ScriptedServer;
  let vaultRoot: string;
  beforeAll(async () => {
    server = await startServer(protocol);
    vaultRoot = await mkdtemp(join(tmpdir(), "synapse-perimeter-"));
    for (const path of [NOTE_PATH, `private/${NOTE_PATH}`]) {
      await mkdir(dirname(join(vaultRoot, path)), { recursive: true });
      await writeFile(join(vaultRoot, path), noteText());
    }
  });
  afterAll(async () => {
    await server.close();
    await rm(vaultRoot, { recursive: true, force: true });
  });
  beforeEach(() => {
    server.reset();
    server.setScript(VALID);
  });

  const remote = () => createProvider(protocol, envFor(protocol, server, { url: REMOTE[protocol], fetch: redirectingFetch(server) }));
  const local = () => createProvider(protocol, envFor(protocol, server));

  it("the remote configuration really reaches the server when nothing forbids it", async () => {
    const provider = remote();
    expect(provider.capabilities().isLocal).toBe(false);
    await new Perimeter({ localOnly: false, excludedFolders: [] }).guard(provider).analyze("text", "", ingestRun());
    expect(server.modelRequests()).toHaveLength(1);
  });

  it("local-only mode refuses a remote provider before any request", async () => {
    const guarded = new Perimeter({ localOnly: true, excludedFolders: [] }).guard(remote());
    const error = await failure(() => guarded.analyze(noteText(), "", ingestRun()));
    expect(error.kind).toBe("perimeter");
    expect(error.message).toMatch(/Local-only mode is on/);
    await expect(failure(() => collect(guarded.chat([{ role: "user", content: "hi" }], "", createRunContext())))).resolves.toMatchObject({ kind: "perimeter" });
    expect(server.requests).toHaveLength(0);
  });

  // Anthropic models never run on this machine: a loopback base URL is a proxy, so it stays remote.
  const runsLocally = protocol !== "anthropic";

  it("local-only mode lets a provider on this machine through (and never Anthropic, even via a loopback proxy)", async () => {
    const guarded = new Perimeter({ localOnly: true, excludedFolders: [] }).guard(local());
    if (runsLocally) {
      await guarded.analyze("text", "", ingestRun());
      expect(server.modelRequests()).toHaveLength(1);
    } else {
      expect((await failure(() => guarded.analyze("text", "", ingestRun()))).kind).toBe("perimeter");
      expect(server.requests).toHaveLength(0);
    }
  });

  it("an excluded folder keeps its notes from every provider, local ones included", async () => {
    const guarded = new Perimeter({ localOnly: false, excludedFolders: ["private/"] }).guard(local());
    const run = createRunContext({ source: { path: `private/${NOTE_PATH}`, text: noteText() } });
    const error = await failure(() => guarded.analyze(noteText(), "", run));
    expect(error.kind).toBe("perimeter");
    expect(server.requests).toHaveLength(0);
  });

  it("the ingest pipeline sends nothing in local-only mode or for an excluded note, and writes nothing", async () => {
    const vault = new NodeVault(vaultRoot);
    const base = envFor(protocol, server).settings;
    const localOnly = await ingestNote({ vault, provider: remote(), settings: { ...base, localOnly: true } }, { notePath: NOTE_PATH });
    expect(localOnly.error?.kind).toBe("perimeter");
    const excluded = await ingestNote({ vault, provider: local(), settings: { ...base, excludedFolders: ["private"] } }, { notePath: `private/${NOTE_PATH}` });
    expect(excluded.error?.kind).toBe("perimeter");
    expect(server.requests).toHaveLength(0);
    expect(localOnly.pages).toEqual([]);
    await expect(readFile(join(vaultRoot, "wiki/index.md"), "utf8")).rejects.toThrow();
  });

  it("the ingest pipeline does run a permitted note end to end", async () => {
    const vault = new NodeVault(vaultRoot);
    const settings = { ...envFor(protocol, server).settings, localOnly: runsLocally, excludedFolders: ["private"] };
    const report = await ingestNote({ vault, provider: local(), settings }, { notePath: NOTE_PATH, dryRun: true });
    expect(report.error).toBeNull();
    expect(report.converged).toBe(true);
    expect(server.modelRequests()).toHaveLength(2);
  });
});
