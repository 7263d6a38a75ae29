/** `openai`, loaded when the OpenAI-compatible backend first sends a request. */
import type * as Sdk from "openai";
import { lazyModule } from "../lazy-module";

export const openaiSdk = lazyModule<typeof Sdk>(() => import("openai"));
