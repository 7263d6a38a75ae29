/**
 * The parts of `@anthropic-ai/sdk` that Synapse calls: the request machinery (`BaseAnthropic`:
 * auth headers, timeouts, the injected fetch, SSE), Messages and Models, and the error classes.
 * The package's default `Anthropic` client also builds Files, Skills, Organization and the whole
 * Beta tree (tool runners, environments, sessions), about 270 KB of the plugin that nothing here
 * uses; a client of our own over the same base keeps them out of `main.js`.
 */
import { BaseAnthropic } from "@anthropic-ai/sdk/client";
import { Messages } from "@anthropic-ai/sdk/resources/messages/messages";
import { Models } from "@anthropic-ai/sdk/resources/models";

export { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from "@anthropic-ai/sdk/core/error";

/** `new Anthropic(options)` with only the resources Synapse uses. */
export class AnthropicMessagesClient extends BaseAnthropic {
  readonly messages: Messages = new Messages(this);
  readonly models: Models = new Models(this);
}
