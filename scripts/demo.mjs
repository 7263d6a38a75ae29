// `npm run demo`: copies the example vault to a temporary folder, ingests one note with the
// Offline provider through the built CLI, and prints what it wrote.
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, readdirSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";

const root = new URL("..", import.meta.url).pathname;
const vault = mkdtempSync(join(tmpdir(), "synapse-demo-"));
cpSync(join(root, "examples", "vault"), vault, { recursive: true });
const note = process.argv[2] ?? "Clippings/Local-first software.md";

console.log(`Example vault copied to ${vault}\n`);
const run = spawnSync(process.execPath, [join(root, "dist", "cli.mjs"), "ingest", note, "--vault", vault, "--provider", "offline"], {
  stdio: "inherit",
});
if (run.status !== 0) process.exit(run.status ?? 1);

const walk = (dir) => readdirSync(dir).flatMap((name) => {
  const full = join(dir, name);
  return statSync(full).isDirectory() ? walk(full) : [full];
});
const wiki = join(vault, "wiki");
const sourcePage = walk(wiki).find((f) => f.includes(`${join("wiki", "sources")}`));
console.log(`\nThe wiki now holds:\n${walk(wiki).map((f) => `  ${relative(vault, f)}`).join("\n")}`);
if (sourcePage) console.log(`\n--- ${relative(vault, sourcePage)} ---\n${readFileSync(sourcePage, "utf8")}`);
console.log(`Open ${vault} as a vault in Obsidian to browse it.`);
