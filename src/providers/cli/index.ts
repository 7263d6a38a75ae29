export { createCliProvider, CLI_PROVIDER_NAME, type CliProviderOptions } from "./cli-provider";
export { checkBridgeHealth, type BridgeHealthOptions } from "./health";
