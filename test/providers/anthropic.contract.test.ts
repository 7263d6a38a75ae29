import { describeProviderContract } from "./contract";

describeProviderContract("anthropic", { hasRefusalSignal: true });
