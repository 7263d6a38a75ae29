/**
 * Test vaults and environments for the bridge tests: a small vault on disk with a clipped source
 * note, an existing wiki page, Obsidian's config and a private folder, plus a snapshot of every
 * file so a test can prove nothing outside the returned pages changed.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, sep } from "node:path";
import process from "node:process";

export const NOTE_PATH = "Clippings/Local-first software.md";

export const NOTE_TEXT = `---
source: https://www.inkandswitch.com/local-first/
clipped: 2026-05-02
---
# Local-first software

Local-first software keeps the primary copy of your data on your own devices. The network is used
to synchronise between devices and to collaborate, but the application keeps working offline.

The essay by Martin Kleppmann, Adam Wiggins, Peter van Hardenberg and Mark McGranaghan names seven
ideals: no spinners, your work is not trapped on one device, the network is optional, seamless
collaboration with colleagues, the long now, security and privacy by default, and ultimate
ownership and control.

CRDTs (conflict-free replicated data types) are presented as the most promising foundation: they
let replicas change independently and merge without conflicts. See also [[Automerge]].
`;

export const EXISTING_PAGE_PATH = "wiki/CRDT.md";
export const EXISTING_PAGE = `---
type: concept
title: CRDT
sources:
  - Notes/Distributed systems.md
lang: en
tags:
  - distributed-systems
---
A conflict-free replicated data type lets replicas be changed independently and merged later.
`;

export interface TestVault {
  readonly root: string;
  /** Every file in the vault, by vault-relative path. */
  readonly snapshot: () => Map<string, string>;
  readonly write: (path: string, content: string) => void;
  readonly dispose: () => void;
}

function walk(root: string, dir: string, out: Map<string, string>): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) walk(root, full, out);
    else out.set(relative(root, full).split(sep).join("/"), readFileSync(full, "utf8"));
  }
}

export function makeVault(): TestVault {
  const root = mkdtempSync(join(tmpdir(), "synapse-vault-"));
  const write = (path: string, content: string) => {
    const full = join(root, ...path.split("/"));
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, content, "utf8");
  };
  write(NOTE_PATH, NOTE_TEXT);
  write(EXISTING_PAGE_PATH, EXISTING_PAGE);
  write("Private/diary.md", "# Diary\nNothing for the agent.\n");
  write(".obsidian/app.json", "{}\n");
  return {
    root,
    snapshot: () => {
      const out = new Map<string, string>();
      walk(root, root, out);
      return out;
    },
    write,
    dispose: () => rmSync(root, { recursive: true, force: true }),
  };
}

/** A page as the wiki conventions want it, citing the ingested note. */
export function pageMarkdown(title: string, options: { type?: string; sources?: string[]; lang?: string; body?: string } = {}): string {
  const sources = options.sources ?? [NOTE_PATH];
  return [
    "---",
    `type: ${options.type ?? "source"}`,
    `title: ${title}`,
    "sources:",
    ...sources.map((s) => `  - ${s}`),
    `lang: ${options.lang ?? "en"}`,
    "tags:",
    "  - local-first",
    "---",
    options.body ?? "Local-first software keeps the primary copy of data on the user's devices; see [[CRDT]].",
    "",
  ].join("\n");
}

/** The environment a test bridge runs with: the scripted API, a throwaway HOME, a fake key. */
export function bridgeEnv(apiUrl: string, home: string, extra: Record<string, string> = {}): Record<string, string | undefined> {
  return {
    PATH: process.env.PATH,
    HOME: home,
    ANTHROPIC_API_KEY: "sk-ant-test-key",
    ANTHROPIC_BASE_URL: apiUrl,
    CLAUDE_CODE_MAX_RETRIES: "0",
    ...extra,
  };
}

export function tempHome(): { path: string; dispose: () => void } {
  const path = mkdtempSync(join(tmpdir(), "synapse-home-"));
  return { path, dispose: () => rmSync(path, { recursive: true, force: true }) };
}
