/** The "Test connection" row every profile ends with. */
import { messageOn } from "../../core/errors";
import type { ReadinessReport } from "../../core/readiness";
import type { ProviderId } from "../../settings/schema";
import { renderReadiness } from "../readiness-text";
import type { SettingRow, SettingsContext } from "./rows";

export function testConnectionRow(
  ctx: SettingsContext,
  id: ProviderId,
  what: string,
  onReport?: (report: ReadinessReport) => void,
): SettingRow {
  return {
    name: "Test connection",
    desc: `Checks that ${what} answers, which version it runs, and whether the model is there.`,
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
