// `npm run install-plugin -- <vault>`: copies the built plugin (main.js, manifest.json, styles.css)
// into <vault>/.obsidian/plugins/<id>/. `npm run install-plugin` builds first; run this script
// directly to copy what is already built. Settings (data.json) already in that folder are kept.
import { copyFileSync, existsSync, mkdirSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";

const root = new URL("..", import.meta.url).pathname;
const args = process.argv.slice(2);
const configDirFlag = args.indexOf("--config-dir");
const configDir = configDirFlag >= 0 ? args.splice(configDirFlag, 2)[1] : ".obsidian";
const [vaultArg] = args;

function fail(message) {
  console.error(`install-plugin: ${message}`);
  process.exit(1);
}

if (!vaultArg || vaultArg === "--help" || vaultArg === "-h") {
  console.log("Usage: npm run install-plugin -- <path to vault> [--config-dir .obsidian]");
  process.exit(vaultArg ? 0 : 1);
}

const vault = resolve(vaultArg);
if (!existsSync(vault) || !statSync(vault).isDirectory()) fail(`${vault} is not a folder.`);
if (!configDir || !existsSync(join(vault, configDir))) {
  fail(`${vault} has no ${configDir} folder, so it is not an Obsidian vault yet. Open it in Obsidian once (or pass --config-dir if the vault uses another configuration folder).`);
}

const manifest = JSON.parse(readFileSync(join(root, "manifest.json"), "utf8"));
const files = ["main.js", "manifest.json", "styles.css"];
for (const file of files) {
  if (!existsSync(join(root, file))) fail(`${file} is missing; build the plugin first (npm run build).`);
}

const target = join(vault, configDir, "plugins", manifest.id);
mkdirSync(target, { recursive: true });
for (const file of files) copyFileSync(join(root, file), join(target, file));

const kept = existsSync(join(target, "data.json")) ? " Your settings (data.json) were kept." : "";
console.log(`Installed ${manifest.name} ${manifest.version} into ${target}.${kept}`);
console.log(`Next: in Obsidian, open Settings → Community plugins, turn off restricted mode if it is on, and enable ${manifest.name}.`);
console.log("If Obsidian was already open, reload it (or turn the plugin off and on) to pick up the new build.");
