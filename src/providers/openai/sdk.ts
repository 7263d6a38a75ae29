/** The parts of `openai` Synapse uses, loaded when the OpenAI-compatible backend first sends a request. */
import type * as Sdk from "./sdk-client";
import { lazyModule } from "../lazy-module";

export const openaiSdk = lazyModule<typeof Sdk>(() => import("./sdk-client"));
