import { mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { NodeVault } from "../../src/vault/node-vault";
import { tempDir } from "../helpers/temp-vault";

function tempVault(): { root: string; vault: NodeVault } {
  const root = tempDir("vault-");
  return { root, vault: new NodeVault(root) };
}

/** Plain files (a/One.md, b/Three.md and `second`), a folder named like a note, a linked folder (inside/) and a linked note (alias.md). */
async function mixedVault(second: string, text: string) {
  const made = tempVault();
  const { root, vault } = made;
  await vault.create("a/One.md", "one");
  await vault.create(second, text);
  await vault.create("b/Three.md", "three");
  mkdirSync(join(root, "folder.md"));
  symlinkSync(join(root, "a"), join(root, "inside"));
  symlinkSync(join(root, "b/Three.md"), join(root, "alias.md"));
  return made;
}

describe("the Node vault", () => {
  it("creates files with their folders, reads, lists markdown recursively and skips .obsidian", async () => {
    const { root, vault } = tempVault();
    await vault.create("a/b/Note.md", "hello");
    mkdirSync(join(root, ".obsidian"));
    writeFileSync(join(root, ".obsidian", "x.md"), "config");
    writeFileSync(join(root, "a", "image.png"), "png");
    expect(await vault.read("a/b/Note.md")).toBe("hello");
    expect(await vault.list("")).toEqual(["a/b/Note.md"]);
    expect(await vault.list("missing")).toEqual([]);
    expect(await vault.stat("a/b/Note.md")).toMatchObject({ size: 5 });
    expect(await vault.stat("a/b/None.md")).toBeNull();
  });

  it("refuses to create over an existing file", async () => {
    const { vault } = tempVault();
    await vault.create("x.md", "1");
    await expect(vault.create("x.md", "2")).rejects.toMatchObject({ kind: "vault" });
    expect(await vault.read("x.md")).toBe("1");
  });

  it("processes a file atomically and leaves no temporary files behind", async () => {
    const { root, vault } = tempVault();
    await vault.create("x.md", "1");
    await vault.process("x.md", (current) => `${current}2`);
    expect(readFileSync(join(root, "x.md"), "utf8")).toBe("12");
    expect(readdirSync(root)).toEqual(["x.md"]);
  });

  it("keeps the file as it was when the update throws", async () => {
    const { vault } = tempVault();
    await vault.create("x.md", "original");
    await expect(
      vault.process("x.md", () => {
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    expect(await vault.read("x.md")).toBe("original");
  });

  it("replaces a file only if it still holds the text read, judging bytes that are not UTF-8 by their text", async () => {
    const { root, vault } = tempVault();
    await vault.create("x.md", "read ü 東京");
    expect(await vault.replaceIfUnchanged("x.md", "read ü 東京", "ours")).toBe(true);
    expect(readFileSync(join(root, "x.md"), "utf8")).toBe("ours");
    writeFileSync(join(root, "x.md"), "typed by the user");
    expect(await vault.replaceIfUnchanged("x.md", "ours", "again")).toBe(false);
    expect(readFileSync(join(root, "x.md"), "utf8")).toBe("typed by the user");
    // A byte that is not UTF-8 reads as U+FFFD: the text read is still the file's text.
    writeFileSync(join(root, "y.md"), Buffer.from([0x61, 0xff, 0x62]));
    const text = await vault.read("y.md");
    expect(await vault.replaceIfUnchanged("y.md", text, "fixed")).toBe(true);
    expect(await vault.read("y.md")).toBe("fixed");
    expect(readdirSync(root).sort()).toEqual(["x.md", "y.md"]);
  });

  it("writes a text given as pieces as the bytes of the text joined, and nothing when they join to the text read", async () => {
    const { root, vault } = tempVault();
    await vault.create("index.md", "- [[a|Ä]]\n- [[c|東京]]\n");
    const current = await vault.read("index.md");
    expect(await vault.replaceIfUnchanged("index.md", current, ["- [[a|Ä]]\n", "- [[b|Привет 🙂]]\n", "- [[c|東京]]\n", ""])).toBe(true);
    expect(readFileSync(join(root, "index.md"), "utf8")).toBe("- [[a|Ä]]\n- [[b|Привет 🙂]]\n- [[c|東京]]\n");
    writeFileSync(join(root, "index.md"), Buffer.from([0x61, 0xff, 0x62]));
    const odd = await vault.read("index.md");
    expect(await vault.replaceIfUnchanged("index.md", odd, ["a", odd.slice(1)])).toBe(true);
    // The same text: not rewritten, so the byte that is not UTF-8 is still there.
    expect([...readFileSync(join(root, "index.md"))]).toEqual([0x61, 0xff, 0x62]);
    expect(await vault.replaceIfUnchanged("index.md", "other", ["x"])).toBe(false);
    expect(readdirSync(root)).toEqual(["index.md"]);
  });

  it("reads a file of megabytes whose characters straddle its read chunks as one decoding of its bytes", async () => {
    const { root, vault } = tempVault();
    // Three-byte characters after one ASCII byte: chunk boundaries (every 512 KiB) fall inside them.
    const text = `x${"東京 Привет ".repeat(200_000)}`;
    writeFileSync(join(root, "big.md"), text);
    expect(await vault.read("big.md")).toBe(text);
  });

  it.each(["../escape.md", "a/../../escape.md", "/etc/passwd"])("confines %j to the vault", async (path) => {
    const { vault } = tempVault();
    if (path.startsWith("/")) {
      // An absolute path is taken as vault-relative: it cannot reach the real /etc.
      await expect(vault.read(path)).rejects.toThrow();
      return;
    }
    await expect(vault.create(path, "x")).rejects.toMatchObject({ kind: "vault" });
  });

  it("reads a note with the stat of the same file, and nothing where no note is", async () => {
    const { root, vault } = tempVault();
    await vault.create("a/Note.md", "héllo\nworld");
    mkdirSync(join(root, "folder.md"));
    expect(await vault.readWithStat("a/Note.md")).toEqual({ stat: await vault.stat("a/Note.md"), text: await vault.read("a/Note.md") });
    expect(await vault.readWithStat("a/None.md")).toBeNull();
    expect(await vault.readWithStat("missing/None.md")).toBeNull();
    expect(await vault.readWithStat("folder.md")).toBeNull();
    await expect(vault.readWithStat("../outside.md")).rejects.toMatchObject({ kind: "vault" });
  });

  it("refuses to read a note through a symlink out of the vault", async () => {
    const { root, vault } = tempVault();
    const outside = tempDir("outside-");
    writeFileSync(join(outside, "secret.md"), "secret");
    symlinkSync(outside, join(root, "link"));
    symlinkSync(join(outside, "secret.md"), join(root, "alias.md"));
    for (const path of ["link/secret.md", "alias.md"]) {
      await expect(vault.readWithStat(path)).rejects.toMatchObject({ kind: "vault" });
      await expect(vault.read(path)).rejects.toMatchObject({ kind: "vault" });
    }
  });

  it("stats many notes as stat does each: plain files, links inside, missing notes and folders", async () => {
    const { vault } = await mixedVault("a/Two.md", "two two");
    const paths = ["a/One.md", "a/Two.md", "b/Three.md", "inside/One.md", "alias.md", "a/None.md", "missing/None.md", "folder.md"];
    const one = await Promise.all(paths.map((path) => vault.stat(path)));
    expect(one.slice(0, 5).every((s) => s !== null && s.size > 0)).toBe(true);
    expect(one.slice(5)).toEqual([null, null, null]);
    expect(await vault.statMany(paths)).toEqual(one);
    expect(await vault.statMany([])).toEqual([]);
  });

  it("refuses to stat many notes through a symlink out of the vault, as stat refuses one", async () => {
    const { root, vault } = tempVault();
    const outside = tempDir("outside-");
    writeFileSync(join(outside, "secret.md"), "secret");
    symlinkSync(outside, join(root, "link"));
    symlinkSync(join(outside, "secret.md"), join(root, "alias.md"));
    await vault.create("Note.md", "note");
    for (const path of ["link/secret.md", "alias.md", "../outside.md"]) {
      await expect(vault.stat(path)).rejects.toMatchObject({ kind: "vault" });
      await expect(vault.statMany(["Note.md", path])).rejects.toMatchObject({ kind: "vault" });
    }
  });

  it("reads many files as readWithStat does each: plain files, links inside, decomposed names, missing files and folders; a link out of the vault is null", async () => {
    const { root, vault } = await mixedVault("a/Cafe\u0301.md", "décomposé");
    const outside = tempDir("outside-");
    writeFileSync(join(outside, "secret.md"), "secret");
    symlinkSync(outside, join(root, "link"));
    symlinkSync(join(outside, "secret.md"), join(root, "escape.md"));
    const paths = ["a/One.md", "a/Cafe\u0301.md", "b/Three.md", "inside/One.md", "alias.md", "a/None.md", "missing/None.md", "folder.md", "link/secret.md", "escape.md"];
    const many = await vault.readMany(paths);
    expect(many.slice(0, 5).map((found) => found?.text)).toEqual(["one", "décomposé", "three", "one", "three"]);
    for (const [i, path] of paths.slice(0, 5).entries()) expect(many[i]).toEqual(await vault.readWithStat(path));
    expect(many.slice(5)).toEqual([null, null, null, null, null]);
    expect(await vault.readMany([])).toEqual([]);

    // A path out of the vault is refused as no file of it: one such path never fails the batch.
    expect(await vault.readMany(["../outside.md", "a/One.md"])).toEqual([null, many[0]]);
  });

  it("refuses to follow a symlink out of the vault", async () => {
    const { root, vault } = tempVault();
    const outside = tempDir("outside-");
    symlinkSync(outside, join(root, "link"));
    await expect(vault.create("link/evil.md", "x")).rejects.toMatchObject({ kind: "vault" });
    expect(readdirSync(outside)).toEqual([]);
  });
});
