/** Who a Discord token belongs to, asked once: no retries, a short timeout, failures in our words. */
import { API } from "@discordjs/core";
import { REST } from "@discordjs/rest";
import type { BotIdentity } from "../../application/channels/ports.js";
import { toPlatformFailure } from "./discord-failure.js";

export async function checkDiscordToken(token: string, apiRoot: string, timeoutMs: number): Promise<BotIdentity> {
  const rest = new REST({ api: apiRoot, timeout: timeoutMs, retries: 0 }).setToken(token);
  try {
    const me = await new API(rest).users.getCurrent();
    return { id: me.id, username: me.username, name: me.global_name ?? me.username };
  } catch (err) {
    throw toPlatformFailure(err, "the token check");
  } finally {
    rest.clearHashSweeper();
    rest.clearHandlerSweeper();
  }
}
