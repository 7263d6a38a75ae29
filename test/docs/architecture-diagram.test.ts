/**
 * The layer diagram of docs/contributing/architecture.md says what ESLint enforces: a folder may
 * import every folder it reaches by solid arrows and no other (the `import/no-restricted-paths`
 * zones built from `LAYERS` in eslint.config.mjs), a dotted arrow between checked folders is an
 * exception the config names, and every folder of src/ is in the picture.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "../..");
const PAGE = "docs/contributing/architecture.md";

interface Diagram {
  readonly nodes: Set<string>;
  readonly solid: [string, string][];
  readonly dotted: [string, string][];
}

/** A node's id in the diagram is its folder's name; `main` is `main.ts`. */
const folderOf = (id: string) => (id === "main" ? "main.ts" : id);

function readDiagram(markdown: string): Diagram {
  const block = /```mermaid\n([\s\S]*?)```/.exec(markdown)?.[1];
  if (block === undefined) throw new Error(`${PAGE} has no mermaid diagram`);
  const nodes = new Set<string>();
  const solid: [string, string][] = [];
  const dotted: [string, string][] = [];
  for (const raw of block.split("\n")) {
    const line = raw.trim();
    const node = /^(\w+)\[/.exec(line);
    if (node?.[1] !== undefined) nodes.add(folderOf(node[1]));
    const both = /^(\w+) <--> (\w+)$/.exec(line);
    const one = /^(\w+) --> (\w+)$/.exec(line);
    const dots = /^(\w+) -\.->(?:\|"[^"]*"\|)? (\w+)$/.exec(line);
    if (both?.[1] !== undefined && both[2] !== undefined) {
      solid.push([folderOf(both[1]), folderOf(both[2])], [folderOf(both[2]), folderOf(both[1])]);
    } else if (one?.[1] !== undefined && one[2] !== undefined) {
      solid.push([folderOf(one[1]), folderOf(one[2])]);
    } else if (dots?.[1] !== undefined && dots[2] !== undefined) {
      dotted.push([folderOf(dots[1]), folderOf(dots[2])]);
    } else if (/--|-\./.test(line.replace(/\[".*"\]/, ""))) {
      throw new Error(`${PAGE}: an arrow this test cannot read: ${line}`);
    }
  }
  return { nodes, solid, dotted };
}

interface Zone {
  readonly target: unknown;
  readonly from: unknown;
  readonly except?: unknown;
}

const isZone = (value: unknown): value is Zone => typeof value === "object" && value !== null && "target" in value && "from" in value;

/** `./src/wiki/**` or `./src/wiki` → `wiki`; `./src/main.ts` → `main.ts`. */
const zoneFolder = (glob: string) => glob.replace(/^\.\/src\//, "").replace(/\/\*\*$/, "");

/** The layer zones of the config ESLint runs on src/: which folder may not import which, and the exceptions. */
async function layerZones(): Promise<{ folders: Set<string>; forbidden: Set<string>; excepted: Set<string> }> {
  const config: unknown = await new ESLint({ cwd: ROOT }).calculateConfigForFile(join(ROOT, "src/main.ts"));
  const rules: unknown = typeof config === "object" && config !== null && "rules" in config ? config.rules : {};
  const setting: unknown = typeof rules === "object" && rules !== null && "import/no-restricted-paths" in rules ? rules["import/no-restricted-paths"] : undefined;
  const options: unknown = Array.isArray(setting) ? setting[1] : undefined;
  const list: unknown = typeof options === "object" && options !== null && "zones" in options ? options.zones : [];
  const zones = Array.isArray(list) ? list.filter(isZone) : [];
  // Retrieval's door is a zone whose target is a list; the layers' zones name one folder each.
  const layers = zones.filter((zone) => typeof zone.target === "string" && typeof zone.from === "string");
  const pair = (zone: Zone) => `${zoneFolder(String(zone.target))} → ${zoneFolder(String(zone.from))}`;
  return {
    folders: new Set(layers.flatMap((zone) => [zoneFolder(String(zone.target)), zoneFolder(String(zone.from))])),
    forbidden: new Set(layers.filter((zone) => zone.except === undefined).map(pair)),
    excepted: new Set(layers.filter((zone) => zone.except !== undefined).map(pair)),
  };
}

let zonesOnce: ReturnType<typeof layerZones> | undefined;
const zonesOfConfig = () => (zonesOnce ??= layerZones());

/** Every folder `from` reaches by solid arrows. */
function reach(from: string, solid: [string, string][]): Set<string> {
  const seen = new Set<string>();
  const queue = [from];
  for (let next = queue.pop(); next !== undefined; next = queue.pop()) {
    for (const [a, b] of solid) {
      if (a === next && !seen.has(b)) {
        seen.add(b);
        queue.push(b);
      }
    }
  }
  seen.delete(from);
  return seen;
}

describe("the architecture page's layer diagram", () => {
  const diagram = readDiagram(readFileSync(join(ROOT, PAGE), "utf8"));

  it("shows every folder of src/ and main.ts", () => {
    const entries = readdirSync(join(ROOT, "src"), { withFileTypes: true });
    const expected = entries.filter((entry) => entry.isDirectory() || entry.name === "main.ts").map((entry) => entry.name);
    expect([...diagram.nodes].sort()).toEqual(expected.sort());
  });

  it("forbids exactly the imports between folders that ESLint forbids", async () => {
    const { folders, forbidden, excepted } = await zonesOfConfig();
    expect(folders.size).toBeGreaterThan(10);
    const solid = diagram.solid.filter(([a, b]) => folders.has(a) && folders.has(b));
    const drawn = new Set<string>();
    for (const target of folders) {
      const allowed = reach(target, solid);
      for (const from of folders) if (from !== target && !allowed.has(from)) drawn.add(`${target} → ${from}`);
    }
    const dottedChecked = diagram.dotted.filter(([a, b]) => folders.has(a) && folders.has(b)).map(([a, b]) => `${a} → ${b}`);
    // A dotted arrow between checked folders is an exception: forbidden by the order, allowed for named files.
    expect(new Set(dottedChecked)).toEqual(excepted);
    expect([...drawn].filter((pair) => !excepted.has(pair)).sort()).toEqual([...forbidden].sort());
  });

  it("draws a folder ESLint does not check with dotted arrows only", async () => {
    const { folders } = await zonesOfConfig();
    const unchecked = [...diagram.nodes].filter((node) => !folders.has(node));
    const solidToUnchecked = diagram.solid.filter(([a, b]) => unchecked.includes(a) || unchecked.includes(b));
    expect(solidToUnchecked).toEqual([]);
  });

  it("reads arrows of every kind the page uses, and refuses one it cannot read", () => {
    expect(() => readDiagram("```mermaid\na ==> b\na -- b\n```")).toThrow(/cannot read: a -- b/);
    expect(readDiagram("```mermaid\na[\"A\"]\nb[\"B\"]\na <--> b\na --> c\nb -.-> c\nc -.->|\"why\"| a\n```").solid).toEqual([
      ["a", "b"],
      ["b", "a"],
      ["a", "c"],
    ]);
    expect(readDiagram("```mermaid\nb -.-> c\nc -.->|\"why\"| a\n```").dotted).toEqual([
      ["b", "c"],
      ["c", "a"],
    ]);
  });
});
