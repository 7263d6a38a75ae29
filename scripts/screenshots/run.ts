/**
 * `npm run screenshots [-- words…]`: renders every surface of the plugin (scripts/screenshots/
 * surfaces/*) with the real UI code, frames it in Obsidian's markup, and shoots it with headless
 * Chromium in the dark and light themes at desktop (1280×800) and phone (390×844) widths, into
 * `screenshots/<surface>-<theme>-<desktop|phone>.png`. A picture grows taller than the window until
 * its whole surface is in it (measure.ts); what sticks out sideways is printed as a warning. Words
 * keep the surfaces whose name has one.
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { measure } from "./measure";

const ROOT = join(import.meta.dirname, "../..");
const CHROMIUM = process.env.CHROMIUM ?? "/usr/bin/chromium";
const OUT = join(ROOT, "screenshots");
const HTML = join(ROOT, ".tmp/screenshots-html");
const THEMES = ["dark", "light"] as const;
const SIZES = { desktop: { width: 1280, height: 800, body: "is-desktop" }, phone: { width: 390, height: 844, body: "is-mobile is-phone" } } as const;

if (!existsSync(CHROMIUM)) {
  console.error(`Headless Chromium is needed at ${CHROMIUM} (or set CHROMIUM). On Debian or Ubuntu:\n  apt-get install -y chromium`);
  process.exit(1);
}

rmSync(HTML, { recursive: true, force: true });
mkdirSync(OUT, { recursive: true });
const words = process.argv.slice(2);
const render = spawnSync("npx", ["vitest", "run", "--config", "scripts/screenshots/vitest.config.ts"], {
  cwd: ROOT,
  stdio: "inherit",
  env: { ...process.env, SCREENSHOTS_HTML: HTML, SCREENSHOTS_ONLY: words.join(" ") },
});
if (render.status !== 0) process.exit(render.status ?? 1);

const css = ["scripts/screenshots/obsidian.css", "styles.css"].map((f) => readFileSync(join(ROOT, f), "utf8")).join("\n");
const jobs: { page: string; png: string; width: number; height: number; label: string }[] = [];
for (const file of readdirSync(HTML).filter((f) => f.endsWith(".html")).sort()) {
  const body = readFileSync(join(HTML, file), "utf8");
  const name = file.replace(/\.html$/, "");
  for (const theme of THEMES) {
    for (const [size, { width, height, body: bodyClass }] of Object.entries(SIZES)) {
      const page = join(HTML, `${name}-${theme}-${size}.page.html`);
      writeFileSync(page, `<!doctype html><html><head><meta charset="utf-8"><style>${css}</style></head><body class="theme-${theme} ${bodyClass}">${body}</body></html>`);
      jobs.push({ page, png: join(OUT, `${name}-${theme}-${size}.png`), width, height, label: `${name} (${theme}, ${size})` });
    }
  }
}

const measured = measure(CHROMIUM, HTML, jobs.map((j) => ({ file: j.page, width: j.width, height: j.height })));
let warnings = 0;
for (const job of jobs) {
  const found = measured.get(job.page.split("/").at(-1) ?? "");
  if (!found) throw new Error(`${job.label} was not laid out`);
  job.height = found.height;
  for (const wide of found.wide) {
    console.warn(`${job.label}: ${wide}`);
    warnings++;
  }
}

/** One Chromium per picture, a few at a time; each has its own profile, so they never share state. */
function shoot(job: (typeof jobs)[number]): Promise<void> {
  const profile = mkdtempSync(join(tmpdir(), "synapse-shots-"));
  return new Promise<void>((resolve, reject) => {
    const chromium = spawn(CHROMIUM, [
      "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
      "--disable-component-update", "--disable-sync", "--hide-scrollbars", `--user-data-dir=${profile}`,
      `--screenshot=${job.png}`, `--window-size=${job.width},${job.height}`, pathToFileURL(job.page).href,
    ], { stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    chromium.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    chromium.on("error", reject);
    chromium.on("close", (code) => {
      rmSync(profile, { recursive: true, force: true });
      if (code === 0 && existsSync(job.png)) resolve();
      else reject(new Error(`Chromium could not shoot ${job.label}:\n${stderr}`));
    });
  });
}

const queue = [...jobs];
const workers = Array.from({ length: Number(process.env.SCREENSHOTS_PARALLEL ?? 3) }, async () => {
  for (let job = queue.shift(); job; job = queue.shift()) await shoot(job);
});
try {
  await Promise.all(workers);
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
}
console.log(`${jobs.length} screenshots in ${OUT}${warnings > 0 ? `; ${warnings} elements stick out sideways (above)` : ""}`);
