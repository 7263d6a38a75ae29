/**
 * How tall each picture must be to show its whole surface, and what sticks out sideways. Every page
 * is laid out once by headless Chromium in an iframe of its width; the page grows until nothing in
 * it scrolls or clips vertically (a modal's or a view's end is in the picture, not below its edge).
 * Elements of the surface past the right edge, or scrolling sideways, are named as warnings.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { pathToFileURL } from "node:url";

export interface Page {
  readonly file: string;
  readonly width: number;
  readonly height: number;
}

export interface Measured {
  readonly height: number;
  /** Elements of the surface past the right edge or scrolling sideways, each described in a few words. */
  readonly wide: readonly string[];
}

/** The tallest picture taken: a surface taller than this is shown to here. */
const MAX_HEIGHT = 6000;

// Runs in Chromium, not here: kept as text so the page carries it.
const SCRIPT = String.raw`
function describe(el) {
  const cls = typeof el.className === "string" && el.className ? "." + el.className.trim().split(/\s+/).join(".") : "";
  const text = (el.textContent || "").trim().replace(/\s+/g, " ").slice(0, 40);
  return el.tagName.toLowerCase() + cls + (text ? ' "' + text + '"' : "");
}
function overflow(doc) {
  let most = 0;
  for (const el of doc.querySelectorAll("*")) {
    const style = doc.defaultView.getComputedStyle(el);
    if (style.overflowY === "visible" || style.display === "none") continue;
    most = Math.max(most, el.scrollHeight - el.clientHeight);
  }
  return most;
}
function wide(doc) {
  const win = doc.defaultView;
  const found = [];
  for (const el of doc.querySelectorAll("[data-shot-surface], [data-shot-surface] *")) {
    const style = win.getComputedStyle(el);
    if (style.display === "none" || style.visibility === "hidden") continue;
    const box = el.getBoundingClientRect();
    if (box.width > 0 && box.right > win.innerWidth + 1) found.push(describe(el) + " ends at x=" + Math.round(box.right));
    else if (style.overflowX !== "visible" && el.scrollWidth > el.clientWidth + 1 && style.textOverflow !== "ellipsis")
      found.push(describe(el) + " scrolls sideways by " + (el.scrollWidth - el.clientWidth) + "px");
    if (found.length >= 5) break;
  }
  return found;
}
window.addEventListener("load", () => {
  const out = {};
  for (const frame of document.querySelectorAll("iframe")) {
    const fits = (h) => {
      frame.style.height = h + "px";
      return overflow(frame.contentDocument) <= 1;
    };
    let height = Number(frame.dataset.height);
    let short = height;
    for (let i = 0; i < 12 && !fits(height) && height < ${MAX_HEIGHT}; i++) {
      short = height;
      // A modal is at most 85% of the window, so the window grows by more than the overflow.
      height = Math.min(${MAX_HEIGHT}, height + Math.ceil(overflow(frame.contentDocument) / 0.85) + 2);
    }
    // Then back down to the shortest height that still fits, so no picture ends in empty space.
    while (height - short > 4) {
      const mid = Math.floor((height + short) / 2);
      if (fits(mid)) height = mid;
      else short = mid;
    }
    frame.style.height = height + "px";
    out[frame.dataset.name] = { height, wide: wide(frame.contentDocument) };
  }
  document.getElementById("measured").textContent = JSON.stringify(out);
});
`;

/** Lays every page out in one Chromium and returns each page's picture height and sideways warnings. */
export function measure(chromium: string, dir: string, pages: readonly Page[]): Map<string, Measured> {
  const frames = pages
    .map((p) => `<iframe data-name="${basename(p.file)}" data-height="${p.height}" src="${basename(p.file)}" style="display:block;border:0;width:${p.width}px;height:${p.height}px"></iframe>`)
    .join("\n");
  const index = join(dir, "measure.html");
  writeFileSync(index, `<!doctype html><html><body><pre id="measured"></pre>${frames}<script>${SCRIPT}</script></body></html>`);
  const profile = mkdtempSync(join(tmpdir(), "synapse-measure-"));
  try {
    const run = spawnSync(
      chromium,
      ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
        "--allow-file-access-from-files", "--hide-scrollbars", `--user-data-dir=${profile}`, "--window-size=1400,900", "--dump-dom", pathToFileURL(index).href],
      { encoding: "utf8", maxBuffer: 256 * 1024 * 1024 },
    );
    const json = /<pre id="measured">([^<]*)<\/pre>/.exec(run.stdout)?.[1];
    if (run.status !== 0 || !json) throw new Error(`Chromium could not lay the pages out:\n${run.stderr}`);
    const parsed = JSON.parse(json.replace(/&quot;/g, '"').replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&")) as Record<string, Measured>;
    return new Map(Object.entries(parsed));
  } finally {
    rmSync(profile, { recursive: true, force: true });
  }
}
