import type { SecretResolver } from "../../application/vault/gateway-ports.js";

/**
 * Stands in until the credential store lands: a server whose env or headers refer to a
 * credential fails to start with this message (its status says so), and nothing else breaks.
 */
export const noCredentialStore: SecretResolver = {
  async resolve(ref: string): Promise<string> {
    throw new Error(`credential "${ref}" cannot be resolved: this daemon has no credential store yet`);
  },
};
