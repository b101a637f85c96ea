/**
 * Polls a condition a child process or a file makes true (a terminal's banner, a browser stand-in's
 * ready file) until it holds or the deadline passes: these have no event to wait on.
 */
export async function until<T>(probe: () => T | undefined | false, what: string, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
