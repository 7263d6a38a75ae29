/**
 * The agent's confinement. Every tool call passes `checkToolCall` twice (a PreToolUse hook and
 * `canUseTool`), so a call the SDK would auto-approve is still checked. The agent may read inside
 * the staging folder and write Markdown files inside the staged wiki folder; nothing else.
 */
import { lstatSync, realpathSync } from "node:fs";
import { dirname, isAbsolute, relative, resolve } from "node:path";

/** The only tools the agent is offered; anything else is refused if it is asked for anyway. */
export const AGENT_TOOLS = ["Read", "Write", "Edit", "Glob", "Grep"] as const;
/** What a question's agent is offered: it reads, it never writes. */
export const READ_ONLY_TOOLS = ["Read", "Glob", "Grep"] as const;
const ALLOWED: ReadonlySet<string> = new Set(AGENT_TOOLS);
const WRITING: ReadonlySet<string> = new Set(["Write", "Edit"]);

/** Tools that must never reach the model even if a default changes (belt and braces with `tools`). */
export const DISALLOWED_TOOLS = [
  "Bash",
  "BashOutput",
  "KillShell",
  "WebFetch",
  "WebSearch",
  "Task",
  "Agent",
  "NotebookEdit",
  "TodoWrite",
  "Skill",
  "SlashCommand",
  "ExitPlanMode",
  "ListMcpResourcesTool",
  "ReadMcpResourceTool",
];

export interface GuardRoots {
  /** Real path of the staging folder: reads are allowed below it. */
  readonly staging: string;
  /** Real path of the staged wiki folder: writes are allowed below it; null for a read-only run. */
  readonly wiki: string | null;
}

export type Verdict =
  | { readonly allowed: true; readonly target: string | null }
  | { readonly allowed: false; readonly target: string | null; readonly reason: string };

function deny(target: string | null, reason: string): Verdict {
  return { allowed: false, target, reason };
}

function isInside(root: string, candidate: string): boolean {
  const rel = relative(root, candidate);
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
}

function hasParentSegment(p: string): boolean {
  return p.split(/[\\/]+/).some((s) => s === "..");
}

/**
 * The real location a path would have: the real path of its deepest existing ancestor plus the
 * rest. A symlink anywhere on the way is followed, so it cannot be used to step outside.
 */
function realLocation(absolute: string): string | null {
  let existing = absolute;
  const rest: string[] = [];
  // lstat, not exists: a dangling symlink "does not exist" but writing through it would follow it.
  while (!lstatSync(existing, { throwIfNoEntry: false })) {
    const parent = dirname(existing);
    if (parent === existing) break;
    rest.unshift(existing.slice(parent.length).replace(/^[\\/]+/, ""));
    existing = parent;
  }
  try {
    const real = realpathSync.native(existing);
    return rest.length ? resolve(real, ...rest) : real;
  } catch {
    return null; // a dangling or looping symlink: nowhere we allow
  }
}

/** Checks one path argument; relative paths are taken from the staging folder (the agent's cwd). */
function checkPath(raw: string, roots: GuardRoots, write: boolean): Verdict {
  if (raw.includes("\0")) return deny(raw, "the path contains a NUL byte");
  if (raw.startsWith("~")) return deny(raw, "home-relative paths are outside the staging folder");
  if (hasParentSegment(raw)) return deny(raw, "paths with .. segments are not allowed; use paths inside the staging folder");
  const absolute = resolve(roots.staging, raw);
  const real = realLocation(absolute);
  const root = write ? roots.wiki : roots.staging;
  if (root === null) return deny(raw, "this run is read-only: nothing may be written");
  if (real === null) return deny(raw, "the path goes through a broken symbolic link");
  if (!isInside(roots.staging, absolute) || !isInside(roots.staging, real)) {
    return deny(raw, "the path is outside the staging folder");
  }
  if (write && (!isInside(root, real) || !isInside(root, absolute))) {
    return deny(raw, "only files inside the wiki folder may be written");
  }
  if (write && !real.toLowerCase().endsWith(".md")) return deny(raw, "only Markdown (.md) files may be written");
  return { allowed: true, target: raw };
}

/** Glob patterns are matched below a folder; an absolute or climbing pattern would leave it. */
function checkPattern(pattern: string): Verdict {
  if (pattern.includes("\0")) return deny(pattern, "the pattern contains a NUL byte");
  if (isAbsolute(pattern) || /^[A-Za-z]:/.test(pattern) || pattern.startsWith("~") || pattern.startsWith("\\")) {
    return deny(pattern, "absolute glob patterns are not allowed; use a pattern relative to the staging folder");
  }
  if (hasParentSegment(pattern)) return deny(pattern, "glob patterns with .. segments are not allowed");
  return { allowed: true, target: pattern };
}

function stringField(input: Record<string, unknown>, key: string): string | null | undefined {
  const value = input[key];
  if (value === undefined || value === null) return undefined;
  return typeof value === "string" ? value : null;
}

/** Decides one tool call. Pure apart from reading the file system for real paths. */
export function checkToolCall(tool: string, input: Record<string, unknown>, roots: GuardRoots): Verdict {
  const offered: readonly string[] = roots.wiki === null ? READ_ONLY_TOOLS : AGENT_TOOLS;
  if (!ALLOWED.has(tool) || !offered.includes(tool)) return deny(null, `the ${tool} tool is not available; only ${offered.join(", ")} are`);
  const write = WRITING.has(tool);
  const checks: Verdict[] = [];
  let target: string | null = null;
  for (const key of ["file_path", "path", "notebook_path"]) {
    const value = stringField(input, key);
    if (value === undefined) continue;
    if (value === null) return deny(null, `${key} must be a string`);
    target ??= value;
    checks.push(checkPath(value, roots, write));
  }
  if (write && target === null) return deny(null, "file_path is required");
  for (const key of ["pattern", "glob"]) {
    if (tool === "Grep" && key === "pattern") continue; // a regular expression, not a path
    const value = stringField(input, key);
    if (value === undefined) continue;
    if (value === null) return deny(null, `${key} must be a string`);
    target ??= value;
    checks.push(checkPattern(value));
  }
  return checks.find((c) => !c.allowed) ?? { allowed: true, target };
}
