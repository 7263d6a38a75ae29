/**
 * The Node vault's guarded replace and remove (src/vault/node-guarded-write.ts), step by step: the
 * file is set aside before it is compared, put back without overwriting a newer save, and what an
 * interrupted write left is settled at the next start without losing either version.
 */
import { existsSync, readFileSync, readdirSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { NodeVault } from "../../src/vault/node-vault";
import { hookedFs, type Boundary } from "../helpers/hooked-fs";
import { makeVault } from "../helpers/temp-vault";

/** A vault whose hook runs `act` once, at the first boundary `when` accepts. */
function vaultActingAt(root: string, when: (b: Boundary) => boolean, act: () => void): NodeVault {
  let done = false;
  const fs = hookedFs((b) => {
    if (done || !when(b)) return;
    done = true;
    act();
  });
  return new NodeVault(root, { fs });
}

const isAsideRead = (b: Boundary) => b.op === "readFile" && b.phase === "after" && b.path.endsWith(".synapse-aside");

describe("a guarded replace", () => {
  it("keeps both versions, and names them, when the user saves anew while the changed file is set aside", async () => {
    const root = makeVault({ "Page.md": "edited by the user" });
    // Between the comparison and the put back, the editor (whose file was gone) saves a new one.
    const vault = vaultActingAt(root, isAsideRead, () => writeFileSync(join(root, "Page.md"), "saved again"));
    await expect(vault.replaceIfUnchanged("Page.md", "what Synapse read", "Synapse's text")).rejects.toMatchObject({
      kind: "vault",
      message: expect.stringContaining('both versions are kept: "Page.md" and "Page (conflict).md"'),
    });
    expect(readFileSync(join(root, "Page.md"), "utf8")).toBe("saved again");
    expect(readFileSync(join(root, "Page (conflict).md"), "utf8")).toBe("edited by the user");
    expect(readdirSync(root).sort()).toEqual(["Page (conflict).md", "Page.md"]);
  });

  it("writes nothing when the user's new file appears at the path while the old one is set aside", async () => {
    const root = makeVault({ "Page.md": "as read" });
    const vault = vaultActingAt(root, isAsideRead, () => writeFileSync(join(root, "Page.md"), "the user's new save"));
    expect(await vault.replaceIfUnchanged("Page.md", "as read", "Synapse's text")).toBe(false);
    expect(readFileSync(join(root, "Page.md"), "utf8")).toBe("the user's new save");
    expect(readdirSync(root)).toEqual(["Page.md"]);
  });

  it("computes a `process` update again from a save that lands before the swap", async () => {
    const root = makeVault({ "Page.md": "one" });
    const vault = vaultActingAt(root, (b) => b.op === "writeFile" && b.phase === "after", () => writeFileSync(join(root, "Page.md"), "one, two"));
    expect(await vault.process("Page.md", (text) => `${text}, three`)).toBe("one, two, three");
    expect(readFileSync(join(root, "Page.md"), "utf8")).toBe("one, two, three");
  });
});

describe("a guarded remove", () => {
  it("keeps a file saved between its plan and its removal", async () => {
    const root = makeVault({ "Page.md": "planned" });
    const vault = vaultActingAt(root, (b) => b.op === "rename" && b.phase === "before", () => writeFileSync(join(root, "Page.md"), "typed just now"));
    expect(await vault.removeIfUnchanged("Page.md", "planned")).toBe(false);
    expect(readFileSync(join(root, "Page.md"), "utf8")).toBe("typed just now");
    expect(readdirSync(root)).toEqual(["Page.md"]);
  });

  it("says a missing file is removed", async () => {
    const vault = new NodeVault(makeVault());
    expect(await vault.removeIfUnchanged("None.md", "x")).toBe(true);
  });
});

describe("what an interrupted write left, at the next start", () => {
  it("puts a set-aside file back where nothing is, drops one equal to the file there, keeps a different one as a copy", async () => {
    const root = makeVault({
      "wiki/Back.md.0123456789ab.synapse-aside": "only copy",
      "wiki/Same.md": "same",
      "wiki/Same.md.0123456789ab.synapse-aside": "same",
      "wiki/Both.md": "the user's new save",
      "wiki/Both.md.0123456789ab.synapse-aside": "the user's earlier edit",
      "wiki/Half.md.0123456789ab.synapse-tmp": "half",
    });
    const report = await new NodeVault(root).removeStrayTempFiles("wiki");
    expect(report).toEqual({
      removed: ["wiki/Half.md.0123456789ab.synapse-tmp", "wiki/Same.md.0123456789ab.synapse-aside"],
      restored: ["wiki/Back.md"],
      keptAs: ["wiki/Both (conflict).md"],
    });
    expect(readdirSync(join(root, "wiki")).sort()).toEqual(["Back.md", "Both (conflict).md", "Both.md", "Same.md"]);
    expect(readFileSync(join(root, "wiki/Back.md"), "utf8")).toBe("only copy");
    expect(readFileSync(join(root, "wiki/Both (conflict).md"), "utf8")).toBe("the user's earlier edit");
  });

  it("finds the next free copy name, never overwriting one", async () => {
    const root = makeVault({ "P.md": "now", "P (conflict).md": "an older copy" });
    renameSync(join(root, "P.md"), join(root, "P.md.0123456789ab.synapse-aside"));
    writeFileSync(join(root, "P.md"), "newer");
    const report = await new NodeVault(root).removeStrayTempFiles("");
    expect(report.keptAs).toEqual(["P (conflict 2).md"]);
    expect(readFileSync(join(root, "P (conflict).md"), "utf8")).toBe("an older copy");
    expect(existsSync(join(root, "P.md.0123456789ab.synapse-aside"))).toBe(false);
  });
});
