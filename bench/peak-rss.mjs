// Preloaded (`node --import ./bench/peak-rss.mjs …`) into a process the benchmark measures: prints
// the process's peak resident memory and CPU time on stderr as it exits. maxRSS is in kilobytes,
// CPU time in microseconds; CPU time is what a machine busy with other work does not stretch.
import process from "node:process";

process.on("exit", () => process.stderr.write(`\n${JSON.stringify({ peakMb: process.resourceUsage().maxRSS / 1024, cpuMs: (process.cpuUsage().user + process.cpuUsage().system) / 1000 })}\n`));
