/** The CLI agent profile: the companion bridge that runs the agent, and the agent's limits. */
import { numberRow, textRow, type SettingSection, type SettingsContext } from "./rows";
import { secretRow } from "./secret-row";
import { testConnectionRow } from "./test-connection";

export function cliSection(ctx: SettingsContext): SettingSection {
  return {
    heading: "CLI agent through the bridge",
    rows: [
      textRow(
        ctx,
        "Bridge URL",
        "Where the companion bridge listens; it prints its address and token when it starts.",
        (s) => s.profiles.cli.bridgeUrl,
        (d, v) => (d.profiles.cli.bridgeUrl = v),
        "http://127.0.0.1:8765",
      ),
      secretRow(
        ctx,
        "Bridge token",
        "The secret in Obsidian's keychain that holds the token the bridge printed.",
        (s) => s.profiles.cli.tokenSecret,
        (d, v) => (d.profiles.cli.tokenSecret = v),
      ),
      numberRow(
        ctx,
        "Max turns",
        "How many turns the agent may take for one note before it is stopped.",
        { min: 1, max: 500, integer: true },
        (s) => s.profiles.cli.maxTurns,
        (d, v) => (d.profiles.cli.maxTurns = v),
      ),
      numberRow(
        ctx,
        "Max budget (USD)",
        "The most one ingest may cost, as the agent reports it.",
        { min: 0.01, integer: false },
        (s) => s.profiles.cli.maxBudgetUsd,
        (d, v) => (d.profiles.cli.maxBudgetUsd = v),
      ),
      testConnectionRow(ctx, "cli"),
    ],
  };
}
