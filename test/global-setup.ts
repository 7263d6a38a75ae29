// Builds the CLI once before the Node tests, so end-to-end tests always run the current code.
import { execFileSync } from "node:child_process";

export default function setup(): void {
  execFileSync(process.execPath, ["esbuild.config.mjs", "--cli"], { stdio: "pipe" });
}
