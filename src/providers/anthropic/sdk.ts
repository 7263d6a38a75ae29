/** `@anthropic-ai/sdk`, loaded when the Anthropic backend first sends a request. */
import type * as Sdk from "@anthropic-ai/sdk";
import { lazyModule } from "../lazy-module";

export const anthropicSdk = lazyModule<typeof Sdk>(() => import("@anthropic-ai/sdk"));
