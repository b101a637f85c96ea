import { describe, expect, test } from "vitest";
import { captureLaunch, dropSession, loadSession, saveSession } from "./token.js";

function fakeWindow(href: string) {
  const store = new Map<string, string>();
  const localStorage = {
    getItem: (k: string) => store.get(k) ?? null,
    setItem: (k: string, v: string) => void store.set(k, v),
    removeItem: (k: string) => void store.delete(k),
  } as Storage;
  const win = {
    location: { href } as Location,
    history: {
      state: null,
      replaceState: (_s: unknown, _t: string, url: string) => {
        win.location = { href: new URL(url, href).href } as Location;
      },
    } as unknown as History,
    localStorage,
  };
  return { win, store };
}

describe("what the address bar brings", () => {
  test("a login code leaves the fragment and is never stored", () => {
    const { win, store } = fakeWindow("http://127.0.0.1:7431/chat#login=abcDEF_123-xyz");
    expect(captureLaunch(win)).toEqual({ code: "abcDEF_123-xyz" });
    expect(win.location.href).toBe("http://127.0.0.1:7431/chat");
    expect([...store.values()].join()).not.toContain("abcDEF");
  });

  test("?token= is taken out of the URL, and the old stored token is erased, never kept", () => {
    const { win, store } = fakeWindow("http://127.0.0.1:7431/?token=secret-token&x=1");
    store.set("coffer.token", "old-long-lived-token");
    expect(captureLaunch(win)).toEqual({ token: "secret-token" });
    expect(win.location.href).toBe("http://127.0.0.1:7431/?x=1");
    expect(store.size).toBe(0);
  });

  test("nothing in the URL: nothing to trade", () => {
    const { win } = fakeWindow("http://127.0.0.1:7431/chat/abc");
    expect(captureLaunch(win)).toBeNull();
    expect(win.location.href).toBe("http://127.0.0.1:7431/chat/abc");
  });

  test("only a well-formed session is loaded back", () => {
    const { win, store } = fakeWindow("http://127.0.0.1:7431/");
    saveSession({ session_id: "s1", secret: "k1" }, win.localStorage);
    expect(loadSession(win.localStorage)).toEqual({ session_id: "s1", secret: "k1" });
    store.set("coffer.session", "{not json");
    expect(loadSession(win.localStorage)).toBeNull();
    store.set("coffer.session", JSON.stringify({ session_id: 1 }));
    expect(loadSession(win.localStorage)).toBeNull();
    dropSession(win.localStorage);
    expect(store.size).toBe(0);
  });
});
