import { describeProviderContract } from "./contract";

describeProviderContract("ollama", { hasRefusalSignal: false });
