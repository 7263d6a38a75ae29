import { defineConfig } from "vitest/config";

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
          testTimeout: 30_000,
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
          testTimeout: 30_000,
          expect: { poll: { timeout: 20_000, interval: 10 } },
        },
      },
    ],
  },
});
