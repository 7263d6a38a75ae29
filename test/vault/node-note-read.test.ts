/**
 * The Node vault's synchronous reads where the file system answers unusually: a file under a lease
 * (a non-blocking open refused with EAGAIN), a link refused with another code than Linux's, a
 * folder swapped for a link out of the vault while a batch reads it, a named pipe at a note's path.
 * `openSync` is wrapped so a test can answer for it once.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import { mkdirSync, renameSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { NodeVault } from "../../src/vault/node-vault";
import { readUnlinked } from "../../src/vault/node-note-read";
import { tempDir } from "../helpers/temp-vault";

vi.mock("node:fs", async (importOriginal) => {
  const real = await importOriginal<typeof import("node:fs")>();
  return { ...real, openSync: vi.fn(real.openSync) };
});

const realOpen = (await vi.importActual<typeof import("node:fs")>("node:fs")).openSync;
const refused = (code: string) => Object.assign(new Error(code), { code });

afterEach(() => {
  vi.mocked(fs.openSync).mockReset().mockImplementation(realOpen);
});

describe.skipIf(process.platform === "win32")("reading a note's file synchronously", () => {
  it("opens a file under a lease again, waiting, as a plain read would", async () => {
    const root = tempDir("lease-");
    writeFileSync(join(root, "Leased.md"), "leased text");
    const flags: number[] = [];
    vi.mocked(fs.openSync).mockImplementation((path, flag, mode) => {
      flags.push(Number(flag));
      if ((Number(flag) & fs.constants.O_NONBLOCK) !== 0) throw refused("EWOULDBLOCK");
      return realOpen(path, flag, mode);
    });
    const vault = new NodeVault(root);
    expect((await vault.readWithStat("Leased.md"))?.text).toBe("leased text");
    expect((await vault.readMany(["Leased.md"]))[0]?.text).toBe("leased text");
    // Each read tried the non-blocking open first, then the waiting one.
    expect(flags.filter((f) => (f & fs.constants.O_NONBLOCK) === 0).length).toBe(2);
  });

  it("sends a refusal other than 'nothing there' to the careful path, whatever the system calls a link", () => {
    const root = tempDir("refusals-");
    writeFileSync(join(root, "Note.md"), "text");
    for (const [code, expected] of [["ELOOP", "follow"], ["EMLINK", "follow"], ["EFTYPE", "follow"], ["EACCES", "follow"], ["ENOENT", null], ["ENOTDIR", null]] as const) {
      vi.mocked(fs.openSync).mockImplementationOnce(() => {
        throw refused(code);
      });
      expect(readUnlinked(join(root, "Note.md")), code).toBe(expected);
    }
    expect(readUnlinked(join(root, "Note.md"))).toMatchObject({ text: "text" });
  });

  it("reads again, the careful way, what a batch read in a folder that became a link out of the vault meanwhile", async () => {
    const root = tempDir("swap-");
    const outside = tempDir("swap-outside-");
    mkdirSync(join(root, "b"));
    writeFileSync(join(root, "a.md"), "a");
    writeFileSync(join(root, "b/x.md"), "inside");
    writeFileSync(join(outside, "x.md"), "secret");
    let swapped = false;
    vi.mocked(fs.openSync).mockImplementation((path, flag, mode) => {
      // After the batch checked b/, and just before it opens b/x.md: b/ becomes a link out of the vault.
      if (!swapped && String(path).endsWith(join("b", "x.md"))) {
        swapped = true;
        renameSync(join(root, "b"), join(root, "b-before"));
        symlinkSync(outside, join(root, "b"));
      }
      return realOpen(path, flag, mode);
    });
    const read = await new NodeVault(root).readMany(["a.md", "b/x.md"]);
    expect(swapped).toBe(true);
    expect(read.map((found) => found?.text ?? null)).toEqual(["a", null]);
  });

  it("takes a named pipe at a note's path for no file, at once (in a child process, so a wait fails the test instead of hanging it)", () => {
    const root = tempDir("pipe-");
    mkdirSync(join(root, "a"));
    writeFileSync(join(root, "a/One.md"), "one");
    expect(spawnSync("mkfifo", [join(root, "a/Pipe.md")]).status).toBe(0);
    const script = `
      import { NodeVault } from ${JSON.stringify(join(import.meta.dirname, "../../src/vault/node-vault.ts"))};
      const vault = new NodeVault(${JSON.stringify(root)});
      const many = await vault.readMany(["a/Pipe.md", "a/One.md"]);
      const one = await vault.readWithStat("a/Pipe.md");
      process.stdout.write(JSON.stringify({ many: many.map((f) => f?.text ?? null), one }));
    `;
    // Generous: a child that waits on the pipe never ends; one that does not ends in about a second.
    const child = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "--eval", script], { encoding: "utf8", timeout: 60_000 });
    expect(child.signal, child.stderr).toBeNull();
    expect(JSON.parse(child.stdout)).toEqual({ many: [null, "one"], one: null });
  });
});
