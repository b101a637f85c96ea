const KEY = "coffer.token";

/**
 * The daemon prints `http://127.0.0.1:PORT/?token=…`. Keep the token (so a reload or a
 * bookmark of /chat still works) and take it out of the address bar, where it would leak
 * into history, screenshots and screen shares.
 */
export function captureToken(win: Pick<Window, "location" | "history" | "localStorage"> = window): string | null {
  const url = new URL(win.location.href);
  const fromUrl = url.searchParams.get("token");
  if (fromUrl) {
    win.localStorage.setItem(KEY, fromUrl);
    url.searchParams.delete("token");
    win.history.replaceState(win.history.state, "", `${url.pathname}${url.search}${url.hash}`);
    return fromUrl;
  }
  return win.localStorage.getItem(KEY);
}

export function forgetToken(storage: Storage = localStorage): void {
  storage.removeItem(KEY);
}
