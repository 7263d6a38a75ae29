import { defineConfig } from "vitest/config";

// The screenshot run (`npm run screenshots`): the surfaces rendered in happy-dom against the
// Obsidian mocks, dressed in Obsidian's markup by setup.ts. Not part of `npm test`.
export default defineConfig({
  root: import.meta.dirname + "/../..",
  resolve: { alias: { obsidian: "obsidian-test-mocks/obsidian" } },
  test: {
    name: "screenshots",
    environment: "happy-dom",
    include: ["scripts/screenshots/render.screens.ts"],
    setupFiles: ["scripts/screenshots/setup.ts"],
    testTimeout: 120_000,
    fileParallelism: false,
  },
});
