import { describeProviderContract } from "./contract";

describeProviderContract("openai", { hasRefusalSignal: true });
