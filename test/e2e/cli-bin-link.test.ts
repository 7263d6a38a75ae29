// `npm install -g` and `npm link` put `synapse` on the PATH as a symbolic link to dist/cli.mjs, so the
// process starts with the link's path, not the bundle's: the CLI must still see itself as the entry point.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI } from "../helpers/run-cli";

describe("synapse started through a symbolic link, as an installed bin is", () => {
  let dir: string;
  let bin: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "synapse-bin-"));
    bin = join(dir, "synapse");
    symlinkSync(CLI, bin);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("prints its version", () => {
    const run = spawnSync(process.execPath, [bin, "--version"], { encoding: "utf8", timeout: 30_000 });
    expect(run.status).toBe(0);
    expect(run.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it("runs a command and reports a usage error with exit code 2", () => {
    const run = spawnSync(process.execPath, [bin, "search", "x"], { encoding: "utf8", timeout: 30_000 });
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/--vault/);
  });
});
