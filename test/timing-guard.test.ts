/**
 * No test may depend on how fast the machine is (a loaded machine once failed a 1 s wait for a
 * 1.07 s operation). This reads the test sources and refuses the shapes that race real work
 * against a short timer; waits go through test/helpers/eventually.ts, speed goes in `npm run bench`.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { WAIT_MS } from "./helpers/eventually";

const ROOT = join(__dirname);

function testSources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "fixtures" ? [] : testSources(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

const number = (text: string) => Number(text.replace(/_/g, ""));

describe("tests do not race the clock", () => {
  const files = testSources(ROOT).filter((f) => !f.endsWith("timing-guard.test.ts"));

  it("finds the test sources", () => {
    expect(files.length).toBeGreaterThan(20);
  });

  it("waits only through the generous helpers, never vi.waitFor's 1 s default", () => {
    const offenders = files.filter((f) => !f.endsWith(join("helpers", "eventually.ts")) && /\bvi\.waitFor\(/.test(readFileSync(f, "utf8")));
    expect(offenders.map((f) => relative(ROOT, f))).toEqual([]);
  });

  it("bounds elapsed-time assertions and explicit wait timeouts generously", () => {
    const offenders: string[] = [];
    for (const file of files) {
      const text = readFileSync(file, "utf8");
      for (const match of text.matchAll(/Date\.now\(\) - \w+\)\.toBeLessThan\(([\d_]+)\)/g)) {
        if (number(match[1] ?? "0") < WAIT_MS / 2) offenders.push(`${relative(ROOT, file)}: ${match[0]}`);
      }
      for (const match of text.matchAll(/\{ timeout: ([\d_]+)/g)) {
        if (number(match[1] ?? "0") < WAIT_MS / 2) offenders.push(`${relative(ROOT, file)}: ${match[0]}`);
      }
    }
    expect(offenders).toEqual([]);
  });
});
