/**
 * Contributor tool: CPU profile of the ingests alone (not the vault's or the index's build) at one
 * wiki size, for finding what grows with the wiki. `tsx bench/profile-ingest.ts 20000 out.cpuprofile`.
 */
import { writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import { profileIngests } from "./ingest-scale.bench";

const pages = Number(process.argv[2] ?? 1000);
const out = process.argv[3] ?? `ingest-${pages}.cpuprofile`;
const session = new Session();
session.connect();
await session.post("Profiler.enable");
const median = await profileIngests(pages, async () => {
  await session.post("Profiler.start");
}, async () => {
  const { profile } = await session.post("Profiler.stop");
  writeFileSync(out, JSON.stringify(profile));
});
process.stdout.write(`${pages} pages: median ${median.toFixed(1)} ms; profile in ${out}\n`);
