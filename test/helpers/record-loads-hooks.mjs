// Loader hooks for record-loads.mjs (they run on the loader thread).
import { appendFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

let out = "";
export function initialize(data) {
  out = data?.out ?? "";
}

export async function load(url, context, nextLoad) {
  if (out && url.startsWith("file:")) appendFileSync(out, `${fileURLToPath(url)}\n`);
  return nextLoad(url, context);
}
