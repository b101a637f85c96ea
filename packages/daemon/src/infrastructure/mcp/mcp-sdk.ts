/**
 * The MCP SDK, loaded on first use: its modules cost 0.3–0.9 s to import here, and a
 * daemon with no upstream servers and no agent turn yet should not pay that at start.
 */
type ServerModules = [
  typeof import("@modelcontextprotocol/sdk/server/index.js"),
  typeof import("@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js"),
  typeof import("@modelcontextprotocol/sdk/types.js"),
];
type ClientModules = [
  typeof import("@modelcontextprotocol/sdk/client/index.js"),
  typeof import("@modelcontextprotocol/sdk/client/stdio.js"),
  typeof import("@modelcontextprotocol/sdk/client/streamableHttp.js"),
  typeof import("@modelcontextprotocol/sdk/types.js"),
];

let serverSdk: Promise<ServerModules> | null = null;
let clientSdk: Promise<ClientModules> | null = null;
let loadedTypes: ClientModules[3] | null = null;

export async function mcpServerSdk() {
  const [server, transport, types] = await (serverSdk ??= Promise.all([
    import("@modelcontextprotocol/sdk/server/index.js"),
    import("@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js"),
    import("@modelcontextprotocol/sdk/types.js"),
  ]));
  return { ...server, ...transport, ...types };
}

export async function mcpClientSdk() {
  const [client, stdio, http, types] = await (clientSdk ??= Promise.all([
    import("@modelcontextprotocol/sdk/client/index.js"),
    import("@modelcontextprotocol/sdk/client/stdio.js"),
    import("@modelcontextprotocol/sdk/client/streamableHttp.js"),
    import("@modelcontextprotocol/sdk/types.js"),
  ]));
  loadedTypes = types;
  return { ...client, ...stdio, ...http, ...types };
}

/** The SDK's types module, for code that runs only once a client has connected (so it is loaded). */
export function loadedMcpTypes(): ClientModules[3] {
  if (!loadedTypes) throw new Error("the MCP client SDK is used before it was loaded");
  return loadedTypes;
}
