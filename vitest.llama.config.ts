import { defineConfig } from "vitest/config";

// The llama.cpp runtime suite (`npm run test:llama`): Synapse against a real runtime with a tiny
// random model. Generation takes minutes on two cores, so `npm test` runs only its fast part.
export default defineConfig({
  test: {
    name: "llama",
    environment: "node",
    include: ["test/llama/**/*.test.ts"],
    globalSetup: ["test/global-setup.ts"],
    setupFiles: ["test/setup-node.ts"],
    // One file at a time: each loads the runtime, and generations share two cores.
    fileParallelism: false,
    testTimeout: 600_000,
    hookTimeout: 120_000,
    expect: { poll: { timeout: 20_000, interval: 10 } },
  },
});
