/** The "Test connection" row every profile ends with. */
import { messageOn } from "../../core/errors";
import type { ReadinessReport } from "../../core/readiness";
import type { ProviderId } from "../../settings/schema";
import { renderReadiness } from "../readiness-text";
import type { SettingRow, SettingsContext } from "./rows";

/** What the check looks at, per backend: the bridge has no model to look for, but a vault and an agent. */
const CHECKS: Record<Exclude<ProviderId, "offline">, string> = {
  ollama: "Checks that the Ollama server answers, which version it runs, and whether the models are installed.",
  anthropic: "Checks that the Anthropic API accepts the key and offers the model.",
  openai: "Checks that the server answers, offers the model, and how large its context window is.",
  cli: "Checks that the bridge answers, serves this vault, and that the agent can start and sign in.",
};

export function testConnectionRow(ctx: SettingsContext, id: Exclude<ProviderId, "offline">, onReport?: (report: ReadinessReport) => void): SettingRow {
  return {
    name: "Test connection",
    desc: CHECKS[id],
    build: (setting) => {
      const out = setting.descEl.createDiv({ cls: "synapse-readiness" });
      setting.addButton((button) =>
        button.setButtonText("Test connection").onClick(async () => {
          button.setDisabled(true);
          out.empty();
          out.setText("Testing…");
          try {
            const report = await ctx.checkReadiness(id);
            renderReadiness(out, report);
            onReport?.(report);
          } catch (error) {
            out.setText(`The check could not run: ${messageOn(error, "plugin")}`);
          } finally {
            button.setDisabled(false);
          }
        }),
      );
    },
  };
}
