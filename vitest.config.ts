import { defineConfig } from "vitest/config";

/** Only a hang reaches it (docs/contributing/testing.md, "No timing in tests"). */
const TEST_TIMEOUT_MS = 120_000;

// Two projects: plain Node for everything Obsidian-free, happy-dom + mocks for plugin code.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: "node",
          environment: "node",
          include: ["test/**/*.test.ts"],
          // The llama.cpp runtime suite has its own command (npm run test:llama, vitest.llama.config.ts);
          // only its fast part, the schemas compiled to grammars, runs here.
          exclude: ["test/obsidian/**", "test/llama/!(schemas-compile).test.ts"],
          globalSetup: ["test/global-setup.ts"],
          setupFiles: ["test/setup-node.ts"],
          // A hang detector, not a speed limit: an end-to-end test starts the CLI six or eight times,
          // each a few seconds on two cores shared by a busy machine, and 30 s failed such a test.
          testTimeout: TEST_TIMEOUT_MS,
          hookTimeout: 60_000,
          // expect.poll waits for events; its 1 s default loses to a loaded machine (see test/helpers/eventually.ts).
          expect: { poll: { timeout: 20_000, interval: 10 } },
        },
      },
      {
        resolve: { alias: { obsidian: "obsidian-test-mocks/obsidian" } },
        test: {
          name: "plugin",
          environment: "happy-dom",
          include: ["test/obsidian/**/*.test.ts"],
          setupFiles: ["obsidian-test-mocks/vitest-setup"],
          testTimeout: TEST_TIMEOUT_MS,
          expect: { poll: { timeout: 20_000, interval: 10 } },
        },
      },
    ],
  },
});
