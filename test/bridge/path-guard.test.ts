/** The agent's confinement, decided one tool call at a time against a real staging folder. */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkToolCall, type GuardRoots } from "../../src/bridge/path-guard";

describe("checkToolCall", () => {
  let base: string;
  let roots: GuardRoots & { wiki: string };
  let outside: string;

  beforeAll(() => {
    base = realpathSync(mkdtempSync(join(tmpdir(), "synapse-guard-")));
    const staging = join(base, "staging");
    outside = join(base, "outside");
    mkdirSync(join(staging, "wiki", "concepts"), { recursive: true });
    mkdirSync(join(staging, "Clippings"), { recursive: true });
    mkdirSync(outside);
    writeFileSync(join(staging, "Clippings", "note.md"), "# Note");
    writeFileSync(join(outside, "secret.md"), "secret");
    // Links a hostile process could have planted: out of the wiki, and dangling to the outside.
    symlinkSync(outside, join(staging, "wiki", "escape"));
    symlinkSync(join(outside, "new-file.md"), join(staging, "wiki", "dangling.md"));
    roots = { staging, wiki: join(staging, "wiki") };
  });

  afterAll(() => rmSync(base, { recursive: true, force: true }));

  const allowed = (tool: string, input: Record<string, unknown>) => checkToolCall(tool, input, roots).allowed;
  const reason = (tool: string, input: Record<string, unknown>) => {
    const verdict = checkToolCall(tool, input, roots);
    return verdict.allowed ? null : verdict.reason;
  };

  it("lets the agent read and search anywhere in the staging folder", () => {
    expect(allowed("Read", { file_path: "Clippings/note.md" })).toBe(true);
    expect(allowed("Read", { file_path: join(roots.staging, "Clippings", "note.md") })).toBe(true);
    expect(allowed("Glob", { pattern: "wiki/**/*.md" })).toBe(true);
    expect(allowed("Glob", { pattern: "**/*.md", path: "wiki" })).toBe(true);
    expect(allowed("Grep", { pattern: "^/etc/passwd$", path: "wiki", glob: "*.md" })).toBe(true);
    expect(allowed("Grep", { pattern: "CRDT" })).toBe(true);
  });

  it("lets the agent write Markdown pages in the wiki folder, new sub-folders included", () => {
    expect(allowed("Write", { file_path: "wiki/concepts/CRDT.md", content: "x" })).toBe(true);
    expect(allowed("Write", { file_path: join(roots.wiki, "entities", "Ada Lovelace.md"), content: "x" })).toBe(true);
    expect(allowed("Edit", { file_path: "wiki/concepts/CRDT.md", old_string: "a", new_string: "b" })).toBe(true);
  });

  it("refuses every path outside the staging folder", () => {
    expect(reason("Read", { file_path: join(outside, "secret.md") })).toBe("the path is outside the staging folder");
    expect(reason("Read", { file_path: "/etc/passwd" })).toBe("the path is outside the staging folder");
    expect(reason("Write", { file_path: join(outside, "x.md"), content: "x" })).toBe("the path is outside the staging folder");
    expect(reason("Grep", { pattern: "secret", path: outside })).toBe("the path is outside the staging folder");
    expect(reason("Glob", { pattern: "*.md", path: "/" })).toBe("the path is outside the staging folder");
    expect(reason("Read", { file_path: "~/.ssh/id_ed25519" })).toContain("home-relative");
  });

  it("refuses .. segments and absolute glob patterns outright", () => {
    expect(reason("Read", { file_path: "wiki/../../outside/secret.md" })).toContain(".. segments");
    expect(reason("Write", { file_path: "wiki/../wiki/x.md", content: "x" })).toContain(".. segments");
    expect(reason("Glob", { pattern: "/etc/*" })).toContain("absolute glob patterns");
    expect(reason("Glob", { pattern: "../**/*.md" })).toContain(".. segments");
    expect(reason("Grep", { pattern: "x", glob: "C:/Users/**" })).toContain("absolute glob patterns");
  });

  it("follows symbolic links before deciding, dangling ones included", () => {
    expect(reason("Read", { file_path: "wiki/escape/secret.md" })).toBe("the path is outside the staging folder");
    expect(reason("Write", { file_path: "wiki/escape/new.md", content: "x" })).toBe("the path is outside the staging folder");
    expect(reason("Write", { file_path: "wiki/dangling.md", content: "x" })).toBe("the path goes through a broken symbolic link");
  });

  it("keeps writes inside the wiki folder and to Markdown files", () => {
    expect(reason("Write", { file_path: "Clippings/note.md", content: "x" })).toBe("only files inside the wiki folder may be written");
    expect(reason("Edit", { file_path: "Clippings/note.md", old_string: "a", new_string: "b" })).toBe("only files inside the wiki folder may be written");
    expect(reason("Write", { file_path: "wiki/run.sh", content: "x" })).toBe("only Markdown (.md) files may be written");
    expect(reason("Write", { content: "x" })).toBe("file_path is required");
  });

  it("refuses every tool but Read, Write, Edit, Glob and Grep", () => {
    for (const tool of ["Bash", "WebFetch", "WebSearch", "Task", "NotebookEdit", "mcp__evil__run"]) {
      expect(reason(tool, { command: "true" })).toBe(`the ${tool} tool is not available; only Read, Write, Edit, Glob, Grep are`);
    }
  });

  it("refuses malformed arguments instead of guessing", () => {
    expect(reason("Read", { file_path: 42 })).toBe("file_path must be a string");
    expect(reason("Read", { file_path: "wiki/a\0.md" })).toContain("NUL");
  });

  it("in a read-only run (a question), offers Read, Glob and Grep only and refuses every write", () => {
    const readOnly: GuardRoots = { staging: roots.staging, wiki: null };
    expect(checkToolCall("Read", { file_path: "Clippings/note.md" }, readOnly).allowed).toBe(true);
    expect(checkToolCall("Grep", { pattern: "CRDT", path: "wiki" }, readOnly).allowed).toBe(true);
    expect(checkToolCall("Glob", { pattern: "wiki/**/*.md" }, readOnly).allowed).toBe(true);
    for (const tool of ["Write", "Edit"]) {
      const verdict = checkToolCall(tool, { file_path: "wiki/concepts/CRDT.md", content: "x", old_string: "a", new_string: "b" }, readOnly);
      expect(verdict).toMatchObject({ allowed: false, reason: "the " + tool + " tool is not available; only Read, Glob, Grep are" });
    }
    expect(checkToolCall("Bash", { command: "ls" }, readOnly).allowed).toBe(false);
  });
});
