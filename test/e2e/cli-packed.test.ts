/**
 * The package `npm pack` makes is what a user installs with `npm install -g`: it must carry every
 * file the `synapse` command loads and declare every package it imports at run time. The test lays
 * the packed files out as an install does (the package's folder, with only its declared
 * dependencies beside it in node_modules) and runs an ingest, a query and the bridge from there,
 * never from the source tree. A chunk left out of `files`, or an external import that is not a
 * dependency, fails here.
 */
import { spawn, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as z from "zod";
import { cliEnv } from "../helpers/run-cli";

const REPO = new URL("../..", import.meta.url).pathname;

/** What `npm pack --dry-run --json` prints: one entry per package, with the files it would hold. */
const PackListing = z.array(z.object({ files: z.array(z.object({ path: z.string() })) })).length(1);
const Manifest = z.object({ dependencies: z.record(z.string(), z.string()) });

let root: string;
let installed: string;

/** Runs the installed package's bin as `synapse` would run it. */
function synapse(args: readonly string[]) {
  return spawnSync(process.execPath, [join(installed, "dist", "cli.mjs"), ...args], { encoding: "utf8", env: cliEnv(), cwd: root, timeout: 60_000 });
}

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "synapse-packed-"));
  // --ignore-scripts: the global setup has built dist/ already; prepack would build it once more.
  const pack = spawnSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: REPO, encoding: "utf8", timeout: 60_000 });
  expect(pack.status, pack.stderr).toBe(0);
  const [listing] = PackListing.parse(JSON.parse(pack.stdout));
  installed = join(root, "node_modules", "synapse");
  for (const { path } of listing!.files) {
    mkdirSync(dirname(join(installed, path)), { recursive: true });
    cpSync(join(REPO, path), join(installed, path));
  }
  // Only what package.json declares sits beside it, as npm would put it there.
  const { dependencies } = Manifest.parse(JSON.parse(readFileSync(join(installed, "package.json"), "utf8")));
  const modules = join(installed, "node_modules");
  for (const name of Object.keys(dependencies)) {
    mkdirSync(dirname(join(modules, name)), { recursive: true });
    symlinkSync(join(REPO, "node_modules", name), join(modules, name), "dir");
  }
  mkdirSync(join(root, "vault", "notes"), { recursive: true });
  writeFileSync(
    join(root, "vault", "notes", "Ada.md"),
    "# Ada Lovelace\n\nAda Lovelace wrote the first published algorithm, for Charles Babbage's Analytical Engine.\n",
  );
}, 120_000);

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("the package npm pack makes, installed on its own", () => {
  it("holds the bin and the chunks it loads, and no source", () => {
    expect(existsSync(join(installed, "dist", "cli.mjs"))).toBe(true);
    expect(existsSync(join(installed, "src"))).toBe(false);
    expect(synapse(["--version"]).stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it("ingests a note and answers a question with the Offline provider", () => {
    const ingest = synapse(["ingest", "notes/Ada.md", "--vault", join(root, "vault"), "--provider", "offline", "--json"]);
    expect(ingest.status, ingest.stderr).toBe(0);
    const query = synapse(["query", "Who wrote the first published algorithm?", "--vault", join(root, "vault"), "--provider", "offline"]);
    expect(query.status, query.stderr).toBe(0);
    expect(query.stdout).toMatch(/Ada/);
  });

  it("starts the bridge, which finds the agent SDK among the package's own dependencies", async () => {
    const child = spawn(process.execPath, [join(installed, "dist", "cli.mjs"), "bridge", "--vault", join(root, "vault"), "--port", "0"], {
      env: cliEnv(),
      cwd: root,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let said = "";
    // The bridge checks the SDK once it listens: "ok: …" when it loads, "fix: …" when it does not.
    const sdkLine = /(ok|fix): The Claude Agent SDK/;
    try {
      await new Promise<void>((resolve, reject) => {
        const listen = (chunk: Buffer) => {
          said += chunk.toString("utf8");
          if (sdkLine.test(said)) resolve();
        };
        child.stdout.on("data", listen);
        child.stderr.on("data", listen);
        child.on("close", (code) => reject(new Error(`The bridge stopped (exit ${code}) before it checked the SDK:\n${said}`)));
      });
    } finally {
      child.kill("SIGTERM");
    }
    expect(said).toMatch(/listening on http:\/\/127\.0\.0\.1:\d+/);
    expect(said).toMatch(/ok: The Claude Agent SDK [\d.]+ is installed/);
  });
});
