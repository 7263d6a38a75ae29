/**
 * `lint`: the wiki's exact checks (no model), each finding with its fixes and their ids — the id
 * `propose` takes to stage one fix for the user's review. Read-only.
 */
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import * as z from "zod";
import { fixId } from "../../lint/fix-id";
import { checkWiki } from "../../lint/run-lint";
import { MAX_LINT_FINDINGS } from "./limits";
import type { McpSession } from "./session";
import { guarded } from "./tool-result";

export const LintArgs = {
  offset: z.number().int().min(0).optional().describe("skip this many findings (default 0)"),
};

export function registerLint(server: McpServer, session: McpSession): void {
  server.registerTool(
    "lint",
    {
      title: "Check the wiki's health",
      description: `Runs the wiki's exact checks (dangling links, orphans, stale pages, duplicates, the index…) and lists the findings, at most ${MAX_LINT_FINDINGS} per call, each with its fixes and their ids. Pass an id to propose (action lint_fix) to stage that fix for the user's review.`,
      inputSchema: LintArgs,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args, extra) =>
      guarded(async () => {
        const settings = await session.admitContent();
        await session.recover(settings, "read");
        const { findings } = await checkWiki({ vault: session.vault, settings, store: session.write.store, write: session.write }, extra.signal);
        const offset = args.offset ?? 0;
        return {
          total: findings.length,
          findings: findings.slice(offset, offset + MAX_LINT_FINDINGS).map((f) => ({
            check: f.check,
            severity: f.severity,
            page: f.page,
            message: f.message,
            fixes: f.fixes.map((x) => ({ id: fixId(f, x), kind: x.kind, label: x.label, ...(x.detail ? { detail: x.detail } : {}), safe: x.safe })),
          })),
        };
      }),
  );
}
