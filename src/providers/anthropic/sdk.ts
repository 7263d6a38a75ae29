/** The parts of `@anthropic-ai/sdk` Synapse uses, loaded when the Anthropic backend first sends a request. */
import type * as Sdk from "./sdk-client";
import { lazyModule } from "../lazy-module";

export const anthropicSdk = lazyModule<typeof Sdk>(() => import("./sdk-client"));
