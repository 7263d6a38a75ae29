import { describe, expect, it } from "vitest";
import { measureBundle, packageOf, SIZE_LIMIT_BYTES, sizeResults } from "../../bench/plugin-size";

// One in-memory build of main.js (a few seconds), shared by the checks below.
const bundle = measureBundle();

describe("main.js size", () => {
  it("stays within 1.0 MB (1,000,000 bytes), minified", async () => {
    const { total, packages } = await bundle;
    const table = packages.map((p) => `${p.name} ${p.bytes}`).join(", ");
    expect(total, `main.js is ${total} bytes: ${table}`).toBeLessThanOrEqual(1_000_000);
    expect(SIZE_LIMIT_BYTES, "the bench's target is the test's").toBe(1_000_000);
  });

  it("attributes every byte to a package, our code or esbuild's runtime", async () => {
    const { total, packages } = await bundle;
    expect(packages.reduce((sum, p) => sum + p.bytes, 0)).toBe(total);
    expect(packages.map((p) => p.name)).toContain("src/");
  });

  it("keeps zod's English messages only and the Anthropic SDK without its Beta tree", async () => {
    const { inputs } = await bundle;
    const locales = inputs.filter((p) => p.includes("zod/v4/locales/") && !p.endsWith("/index.js"));
    expect(locales).toEqual(["node_modules/zod/v4/locales/en.js"]);
    // The client's error table names a few Beta error classes; the Beta resources, tool runners,
    // environments and threads stay out.
    const anthropicParts = ["resources/beta/messages/", "resources/beta/sessions/", "lib/tools/", "lib/environments/", "lib/threads/", "lib/BetaMessageStream"];
    expect(inputs.filter((p) => anthropicParts.some((part) => p.includes(`@anthropic-ai/sdk/${part}`)))).toEqual([]);
  });

  it("keeps the Anthropic SDK's credential chain out: Synapse passes the key", async () => {
    const { inputs } = await bundle;
    const chain = ["lib/credentials/credential-chain", "lib/credentials/user-oauth", "lib/credentials/oidc-federation", "lib/credentials/identity-token", "core/credentials"];
    expect(inputs.filter((p) => chain.some((part) => p.startsWith(`node_modules/@anthropic-ai/sdk/${part}`)))).toEqual([]);
  });

  it("keeps the openai client's chat, embeddings, models, files and batches, and none of its other resources or chat helpers", async () => {
    const { inputs } = await bundle;
    const real = inputs.filter((p) => p.startsWith("node_modules/openai/"));
    for (const kept of ["resources/chat/completions/completions.mjs", "resources/embeddings.mjs", "resources/models.mjs", "resources/files.mjs", "resources/batches.mjs"]) {
      expect(real).toContain(`node_modules/openai/${kept}`);
    }
    const leftOut = ["resources/beta/", "resources/responses/", "resources/realtime/", "resources/admin/", "lib/AssistantStream", "lib/responses/", "lib/ChatCompletionStream", "lib/AbstractChatCompletionRunner", "lib/EventStream", "azure.mjs", "bedrock.mjs"];
    expect(real.filter((p) => leftOut.some((part) => p.startsWith(`node_modules/openai/${part}`)))).toEqual([]);
  });
});

describe("packageOf", () => {
  it("names the npm package of a bundled file, scoped or not, and our own code as src/", () => {
    expect(packageOf("node_modules/zod/v4/core/schemas.js")).toBe("zod");
    expect(packageOf("node_modules/@anthropic-ai/sdk/client.mjs")).toBe("@anthropic-ai/sdk");
    expect(packageOf("node_modules/a/node_modules/@b/c/index.js")).toBe("@b/c");
    expect(packageOf("src/main.ts")).toBe("src/");
  });

  it("counts a build plugin's stand-in as the package it stands in for", () => {
    expect(packageOf("synapse-otel:@opentelemetry/api")).toBe("@opentelemetry/api");
    expect(packageOf("synapse-openai-stand-in:/home/u/synapse/node_modules/openai/resources/beta/beta.mjs")).toBe("openai");
  });
});

describe("sizeResults", () => {
  it("prints the total against the budget, then each package's bytes, largest first, with its share", () => {
    const rows = sizeResults({ total: 1_000_001, packages: [{ name: "src/", bytes: 600_000 }, { name: "zod", bytes: 400_001 }], inputs: [] });
    expect(rows.map((r) => [r.name, r.value, r.pass])).toEqual([
      ["plugin: main.js size (minified)", 1.000001, false],
      ["plugin: main.js bytes from src/", 600, undefined],
      ["plugin: main.js bytes from zod", 400.001, undefined],
    ]);
    expect(rows[0]?.note).toBe("1,000,001 bytes");
    expect(rows[1]?.note).toBe("60.0 %, Synapse's own code");
  });
});
