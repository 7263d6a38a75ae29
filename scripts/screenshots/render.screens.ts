/**
 * Renders every surface (each file under `surfaces/` exports a list) and writes its framed HTML to
 * `SCREENSHOTS_HTML` for `run.ts` to shoot. `SCREENSHOTS_ONLY` (words) keeps the surfaces whose
 * name contains one of them.
 */
/// <reference types="vite/client" />
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { it } from "vitest";
import { frame } from "./frame";
import type { Surface } from "./surface";

const modules = import.meta.glob<{ surfaces: readonly Surface[] }>("./surfaces/*.ts", { eager: true });
const out = process.env.SCREENSHOTS_HTML ?? join(import.meta.dirname, "../../.tmp/screenshots-html");
const only = (process.env.SCREENSHOTS_ONLY ?? "").split(/\s+/).filter((w) => w !== "");
mkdirSync(out, { recursive: true });

const seen = new Set<string>();
for (const module of Object.values(modules)) {
  for (const surface of module.surfaces) {
    if (seen.has(surface.name)) throw new Error(`Two surfaces are named ${surface.name}`);
    seen.add(surface.name);
    if (only.length > 0 && !only.some((w) => surface.name.includes(w))) continue;
    it(surface.name, async () => {
      const rendered = await surface.render();
      writeFileSync(join(out, `${surface.name}.html`), frame(surface.frame, surface.viewType ?? "", rendered));
    });
  }
}
