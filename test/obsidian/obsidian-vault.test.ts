import { App, SecretStorage } from "obsidian-test-mocks/obsidian";
import { afterEach, describe, expect, it, vi } from "vitest";
import { SynapseError } from "../../src/core/errors";
import { ObsidianVault } from "../../src/obsidian/obsidian-vault";
import { ObsidianSecrets } from "../../src/obsidian/secrets";

afterEach(() => vi.restoreAllMocks());

function vaultWith(files: Record<string, string>) {
  const app = App.createConfigured__({ files });
  return { app, vault: new ObsidianVault(app.asOriginalType__()) };
}

describe("the Obsidian vault adapter", () => {
  it("reads notes by path, as text and as bytes", async () => {
    const { vault } = vaultWith({ "Notes/Bees.md": "# Bees\n\nThey make honey." });
    expect(await vault.read("Notes/Bees.md")).toBe("# Bees\n\nThey make honey.");
    expect(await vault.read("/Notes//Bees.md")).toBe("# Bees\n\nThey make honey.");
    expect(await vault.stat("Notes/Bees.md")).toEqual({ size: expect.any(Number) as number, mtime: expect.any(Number) as number });
    expect(await vault.stat("Notes/Wasps.md")).toBeNull();
    expect(await vault.stat("Notes")).toBeNull();
    await expect(vault.read("Notes/Wasps.md")).rejects.toThrow('"Notes/Wasps.md" does not exist.');
    await expect(vault.read("Notes")).rejects.toThrow('"Notes" is a folder, not a note.');
  });

  it("lists the same notes in its own order for the index's worker, which sorts them", async () => {
    const { vault } = vaultWith({ "wiki/b.md": "", "wiki/sub/a.md": "", "wiki/image.png": "", "other/c.md": "" });
    expect((await vault.listInAnyOrder("")).sort()).toEqual(await vault.list(""));
    expect((await vault.listInAnyOrder("wiki")).sort()).toEqual(["wiki/b.md", "wiki/sub/a.md"]);
  });

  it("stats many notes in one call, as one by one", async () => {
    const { vault } = vaultWith({ "Notes/Bees.md": "# Bees", "Notes/Ants.md": "# Ants and more" });
    const paths = ["Notes/Ants.md", "Notes/Wasps.md", "Notes", "/Notes//Bees.md"];
    const one = await Promise.all(paths.map((path) => vault.stat(path)));
    expect(await vault.statMany(paths)).toEqual(one);
    expect(one.map((s) => s === null)).toEqual([false, true, true, false]);
  });

  it("finds files through getFileByPath, never by listing every file", async () => {
    const { app, vault } = vaultWith({ "a.md": "A" });
    const everything = vi.spyOn(app.vault, "getFiles");
    const markdown = vi.spyOn(app.vault, "getMarkdownFiles");
    await vault.read("a.md");
    await vault.stat("a.md");
    await vault.statMany(["a.md"]);
    await vault.process("a.md", (t) => t + "!");
    expect(everything).not.toHaveBeenCalled();
    expect(markdown).not.toHaveBeenCalled();
  });

  it("lists the Markdown notes below a folder, recursively and sorted", async () => {
    const { vault } = vaultWith({ "wiki/b.md": "", "wiki/sub/a.md": "", "wiki/image.png": "", "other/c.md": "" });
    expect(await vault.list("wiki")).toEqual(["wiki/b.md", "wiki/sub/a.md"]);
    expect(await vault.list("")).toEqual(["other/c.md", "wiki/b.md", "wiki/sub/a.md"]);
    expect(await vault.list("missing")).toEqual([]);
  });

  it("creates a note with its missing folders, and refuses to create over an existing one", async () => {
    const { app, vault } = vaultWith({ "wiki/index.md": "" });
    await vault.create("wiki/concepts/deep/Pollination.md", "# Pollination");
    expect(app.vault.getFolderByPath("wiki/concepts/deep")).not.toBeNull();
    expect(await vault.read("wiki/concepts/deep/Pollination.md")).toBe("# Pollination");
    const error = await vault.create("wiki/index.md", "x").catch((e: unknown) => e);
    expect(SynapseError.isInstance(error) && error.kind).toBe("vault");
  });

  it("edits atomically through Vault.process and returns what it wrote", async () => {
    const { app, vault } = vaultWith({ "wiki/a.md": "one" });
    const process = vi.spyOn(app.vault, "process");
    expect(await vault.process("wiki/a.md", (current) => `${current} two`)).toBe("one two");
    expect(process).toHaveBeenCalledTimes(1);
    expect(await vault.read("wiki/a.md")).toBe("one two");
  });

  it("creates folders idempotently, and refuses one where a file is", async () => {
    const { vault } = vaultWith({ "wiki/a.md": "" });
    await vault.createFolder("wiki/x/y");
    await vault.createFolder("wiki/x/y");
    await expect(vault.createFolder("wiki/a.md/z")).rejects.toThrow("is a file");
  });

  it("removes a file through the file manager (the user's trash), and ignores a missing one", async () => {
    const { app, vault } = vaultWith({ "wiki/a.md": "" });
    const trash = vi.spyOn(app.fileManager, "trashFile");
    await vault.remove("wiki/a.md");
    await vault.remove("wiki/a.md");
    expect(trash).toHaveBeenCalledTimes(1);
    expect(await vault.stat("wiki/a.md")).toBeNull();
  });

  it("replaces a file only if Vault.process finds it as expected, else keeps it", async () => {
    const { app, vault } = vaultWith({ "wiki/a.md": "the user's edit" });
    const process = vi.spyOn(app.vault, "process");
    expect(await vault.replaceIfUnchanged("wiki/a.md", "what Synapse read", "Synapse's text")).toBe(false);
    expect(await vault.read("wiki/a.md")).toBe("the user's edit");
    expect(await vault.replaceIfUnchanged("wiki/a.md", "the user's edit", ["Synapse's ", "text"])).toBe(true);
    expect(await vault.read("wiki/a.md")).toBe("Synapse's text");
    expect(process).toHaveBeenCalledTimes(2);
    expect(await vault.replaceIfUnchanged("wiki/none.md", "", "x")).toBe(false);
  });

  it("trashes a file only if it holds what was expected, and says a missing one is gone", async () => {
    const { app, vault } = vaultWith({ "wiki/a.md": "edited since" });
    const trash = vi.spyOn(app.fileManager, "trashFile");
    expect(await vault.removeIfUnchanged("wiki/a.md", "as planned")).toBe(false);
    expect(trash).not.toHaveBeenCalled();
    expect(await vault.removeIfUnchanged("wiki/a.md", "edited since")).toBe(true);
    expect(trash).toHaveBeenCalledTimes(1);
    expect(await vault.stat("wiki/a.md")).toBeNull();
    expect(await vault.removeIfUnchanged("wiki/a.md", "edited since")).toBe(true);
  });

  it("resolves links through the metadata cache, as Obsidian does", () => {
    const { app, vault } = vaultWith({ "wiki/concepts/Pollination.md": "" });
    const lookup = vi.spyOn(app.metadataCache, "getFirstLinkpathDest");
    expect(vault.linkExists("Pollination")).toBe(true);
    expect(vault.linkExists("Nectar")).toBe(false);
    expect(lookup).toHaveBeenCalledWith("Pollination", "");
  });

  it("edits frontmatter through processFrontMatter", async () => {
    const { app, vault } = vaultWith({ "wiki/a.md": "---\ntags: [x]\n---\nBody" });
    const spy = vi.spyOn(app.fileManager, "processFrontMatter");
    await vault.updateFrontmatter("wiki/a.md", (fm) => {
      fm.reviewed = true;
    });
    expect(spy).toHaveBeenCalledTimes(1);
    expect(await vault.read("wiki/a.md")).toContain("reviewed: true");
    expect(await vault.read("wiki/a.md")).toContain("Body");
  });
});

describe("secrets from Obsidian's secret storage", () => {
  it("reads by the name kept in settings, whatever the role", () => {
    const app = App.createConfigured__();
    const storage = SecretStorage.fromOriginalType2__(app.asOriginalType__().secretStorage);
    storage.setSecret("my-key", "sk-123");
    storage.setSecret("blank", "");
    const secrets = new ObsidianSecrets(app.asOriginalType__().secretStorage);
    expect(secrets.get("anthropic-api-key", "my-key")).toBe("sk-123");
    expect(secrets.get("openai-api-key", " my-key ")).toBe("sk-123");
    expect(secrets.get("bridge-token", "missing")).toBeNull();
    expect(secrets.get("bridge-token", "blank")).toBeNull();
    expect(secrets.get("bridge-token", "")).toBeNull();
  });
});
