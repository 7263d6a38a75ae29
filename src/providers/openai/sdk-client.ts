/**
 * The parts of `openai` that Synapse calls: the client (`OpenAI`, from the package's `client`
 * module) and the error classes. The package's index also exports the Azure and Bedrock clients,
 * which a namespace import of "openai" would bundle. In the plugin build the client's unused
 * resources are left out too (scripts/build/plugin-options.mjs).
 */
export { OpenAI as default } from "openai/client";
export { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from "openai/core/error";
