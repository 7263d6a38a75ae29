// The parts of the Anthropic SDK that main.js bundles, beyond what src/providers/anthropic/sdk-client.ts
// already leaves out. The client imports the SDK's credential chain (credentials files, OAuth,
// OIDC federation), which it runs only when no API key or token is passed in code. Synapse always
// passes the key (the factory refuses to build a client without one), so in the plugin build the
// chain is a stand-in that says so. The CLI build keeps the whole SDK.

const CREDENTIAL_CHAIN = `
const unavailable = () => new Error("The Anthropic SDK's credential chain is not part of the Synapse plugin (scripts/build/anthropic-used-parts.mjs); Synapse passes the API key itself.");
export const defaultCredentials = async () => { throw unavailable(); };
export const resolveCredentialsFromConfig = () => { throw unavailable(); };`;

/** The esbuild plugin of the plugin build that leaves the Anthropic SDK's credential chain out. */
export const anthropicUsedParts = {
  name: "anthropic-used-parts",
  setup(build) {
    build.onResolve({ filter: /^\.\/lib\/credentials\/credential-chain\.mjs$/ }, (args) => {
      if (!/(?:^|[/\\])node_modules[/\\]@anthropic-ai[/\\]sdk[/\\]client\.mjs$/u.test(args.importer)) return undefined;
      // The real path keeps the stand-in's bytes counted as the SDK's in the size bench.
      return { path: args.importer.replace(/client\.mjs$/u, "lib/credentials/credential-chain.mjs"), namespace: "synapse-anthropic-stand-in" };
    });
    build.onLoad({ filter: /.*/, namespace: "synapse-anthropic-stand-in" }, () => ({ contents: CREDENTIAL_CHAIN, loader: "js" }));
  },
};
