import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { NodeVault } from "../../src/vault/node-vault";
import { MemoryVault } from "../../src/vault/memory-vault";
import { findPagesById, readRecord } from "../../src/wiki/identity";

const page = (id: string, title: string) => `---\ntype: concept\ntitle: ${title}\nsynapse_id: ${id}\n---\n\nBody of ${title}.\n`;

describe("findPagesById across lookups on one vault", () => {
  it("sees a page's new frontmatter, a new page, and a page gone, though it keeps records of unchanged pages", async () => {
    const vault = new MemoryVault({ "wiki/a.md": page("sy-a", "Alpha"), "wiki/b.md": page("sy-b", "Beta") });
    const first = await findPagesById(vault, ["wiki/a.md", "wiki/b.md"]);
    expect(first.byId("sy-a")?.title).toBe("Alpha");

    await vault.process("wiki/a.md", () => page("sy-a", "Alpha renamed"));
    await vault.create("wiki/c.md", page("sy-c", "Gamma"));
    await vault.remove("wiki/b.md");
    const second = await findPagesById(vault, ["wiki/a.md", "wiki/b.md", "wiki/c.md"]);
    expect(second.byId("sy-a")?.title).toBe("Alpha renamed");
    expect(second.byId("sy-c")?.path).toBe("wiki/c.md");
    expect(second.byId("sy-b")).toBeUndefined();
    // The unchanged page's record is the one read before: nothing parsed twice.
    const third = await findPagesById(vault, ["wiki/a.md", "wiki/c.md"]);
    expect(third.byId("sy-c")).toBe(second.byId("sy-c"));
  });

  it("keeps each vault's pages apart", async () => {
    const one = new MemoryVault({ "wiki/a.md": page("sy-a", "One") });
    const two = new MemoryVault({ "wiki/a.md": page("sy-a", "Two") });
    expect((await findPagesById(one, ["wiki/a.md"])).byId("sy-a")?.title).toBe("One");
    expect((await findPagesById(two, ["wiki/a.md"])).byId("sy-a")?.title).toBe("Two");
  });

  it("reads a user's note into the same record while its text is unchanged, and a new one once it changes", async () => {
    const vault = new MemoryVault({ "notes/a.md": page("sy-a", "Alpha") });
    const first = await readRecord(vault, "notes/a.md");
    expect(await readRecord(vault, "notes/a.md")).toBe(first);
    await vault.process("notes/a.md", () => page("sy-a", "Alpha edited"));
    const edited = await readRecord(vault, "notes/a.md");
    expect(edited).not.toBe(first);
    expect(edited.title).toBe("Alpha edited");
    await expect(readRecord(vault, "notes/none.md")).rejects.toThrow();
  });
});

describe("findPagesById on disk", () => {
  it("reads the pages in batches (no asynchronous read per page), sees edits and gaps, and keeps pages outside the vault out", async () => {
    const root = mkdtempSync(join(tmpdir(), "synapse-identity-"));
    const outside = mkdtempSync(join(tmpdir(), "synapse-outside-"));
    try {
      mkdirSync(join(root, "wiki"));
      writeFileSync(join(root, "wiki/a.md"), page("sy-a", "Alpha"));
      writeFileSync(join(root, "wiki/b.md"), page("sy-b", "Beta"));
      writeFileSync(join(outside, "secret.md"), page("sy-s", "Secret"));
      symlinkSync(join(outside, "secret.md"), join(root, "wiki/link.md"));
      const vault = new NodeVault(root);
      let asyncReads = 0;
      const read = vault.read.bind(vault);
      vault.read = (path: string) => {
        asyncReads += 1;
        return read(path);
      };
      const paths = ["wiki/a.md", "wiki/b.md", "wiki/gone.md", "wiki/link.md"];
      const found = await findPagesById(vault, paths);
      expect(found.records.map((r) => r.title).sort()).toEqual(["Alpha", "Beta"]);
      expect(asyncReads).toBe(0);
      writeFileSync(join(root, "wiki/a.md"), page("sy-a", "Alpha edited"));
      expect((await findPagesById(vault, paths)).byId("sy-a")?.title).toBe("Alpha edited");
      await expect(readRecord(vault, "wiki/gone.md")).rejects.toThrow();
      await expect(readRecord(vault, "wiki/link.md")).rejects.toThrow(/outside the vault/);
    } finally {
      rmSync(root, { recursive: true, force: true });
      rmSync(outside, { recursive: true, force: true });
    }
  });
});

describe("findPagesById over more pages than one batch", () => {
  it("finds on disk the records a memory vault gives, page for page, across the batches' edges", async () => {
    const files: Record<string, string> = {};
    // 600 pages: more than two batches of the vault's reads, with gaps where pages vanished.
    for (let i = 0; i < 600; i++) files[`wiki/p${String(i).padStart(3, "0")}.md`] = page(`sy-${i}`, `Page ${i}`);
    const paths = Object.keys(files);
    const root = mkdtempSync(join(tmpdir(), "synapse-identity-batches-"));
    try {
      mkdirSync(join(root, "wiki"));
      for (const [path, text] of Object.entries(files)) writeFileSync(join(root, path), text);
      const gone = [0, 255, 256, 511, 599].map((i) => paths[i] as string);
      for (const path of gone) rmSync(join(root, path));
      const memory = new MemoryVault(Object.fromEntries(Object.entries(files).filter(([path]) => !gone.includes(path))));
      const onDisk = await findPagesById(new NodeVault(root), paths);
      const inMemory = await findPagesById(memory, paths);
      const view = (records: readonly { path: string; id: string | null; title: string }[]) => records.map((r) => [r.path, r.id, r.title]);
      expect(view(onDisk.records)).toEqual(view(inMemory.records));
      expect(onDisk.records).toHaveLength(595);
      for (const record of onDisk.records) expect(record.id, record.path).toBe(`sy-${Number(record.path.slice(6, 9))}`);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

