/**
 * "Test connection" as each backend answers it when something is missing: real readiness checks
 * (no key, no bridge token, nothing listening at the address) rendered by the settings tab's own
 * code, one row per backend, in the settings window. Nothing here needs a server: the address is a
 * loopback port nobody listens on.
 */
import { createServer } from "node:net";
import { Setting } from "obsidian-test-mocks/obsidian";
import type { ProviderId } from "../../../src/settings/schema";
import { SettingsSchema } from "../../../src/settings/schema";
import { createRequestUrlFetch } from "../../../src/obsidian/request-url-fetch";
import { checkReadiness } from "../../../src/providers/readiness";
import { nodeRequestUrl } from "../../../test/obsidian/node-request-url";
import { renderReadiness } from "../../../src/ui/readiness-text";
import type { Surface } from "../surface";

/** A loopback port that was free a moment ago: connecting to it is refused at once. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === "string") throw new Error("No port");
  return address.port;
}

const CASES: readonly { readonly id: ProviderId; readonly section: string; readonly token?: string }[] = [
  { id: "ollama", section: "Local: Ollama" },
  { id: "anthropic", section: "API: Anthropic" },
  { id: "openai", section: "API: OpenAI-compatible" },
  { id: "cli", section: "CLI agent through the bridge" },
  { id: "cli", section: "CLI agent through the bridge", token: "a-token-the-bridge-printed" },
];

export const surfaces: readonly Surface[] = [
  {
    name: "settings-test-connection",
    frame: "settings",
    render: async () => {
      const port = await closedPort();
      const url = `http://127.0.0.1:${port}`;
      const settings = SettingsSchema.parse({
        profiles: { ollama: { host: url, model: "llama3.2" }, openai: { preset: "custom", baseUrl: `${url}/v1`, model: "qwen3" }, anthropic: { model: "claude-sonnet-4-6" }, cli: { bridgeUrl: url } },
      });
      const container = createDiv();
      for (const c of CASES) {
        const report = await checkReadiness(c.id, {
          settings,
          secrets: { get: (role) => (role === "bridge-token" ? (c.token ?? null) : null) },
          // As in Obsidian: requestUrl (here over Node's http), in a renderer the SDKs see as a browser.
          fetch: createRequestUrlFetch(nodeRequestUrl()),
          browserLike: true,
          vaultPath: "/Users/ada/Notes",
        });
        const setting = new Setting(container).setName(`Test connection · ${c.section}`).setDesc("");
        renderReadiness(setting.descEl.createDiv({ cls: "synapse-readiness" }), report);
        setting.addButton((button) => button.setButtonText("Test connection"));
      }
      return { content: container };
    },
  },
];
