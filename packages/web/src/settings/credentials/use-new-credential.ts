import { CredentialRef } from "@coffer/protocol";
import { useState } from "react";

/** Why a typed credential reference is refused (the protocol's CredentialRef rule), or null. */
export function credentialRefError(ref: string): string | null {
  return ref && !CredentialRef.safeParse(ref).success ? "Use letters, digits, '.', '_' or '-' (up to 128), starting with a letter or digit." : null;
}

/**
 * A credential stored in place, without leaving the form it is picked in (a connection's
 * credential, a channel's bot token): its ref and secret, the ref's error, and `store`, which
 * hands the pair over once and empties the secret whatever the daemon answers.
 */
export function useNewCredential(initialRef = "") {
  const [ref, setRef] = useState(initialRef);
  const [secret, setSecret] = useState("");
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const refError = credentialRefError(ref);
  const ready = ref !== "" && refError === null && secret !== "" && !busy;

  /** Resolves true once `put` stored it; false when not ready or refused (the error is kept). */
  const store = async (put: (ref: string, secret: string) => Promise<unknown>): Promise<boolean> => {
    if (!ready) return false;
    setBusy(true);
    setError(null);
    try {
      await put(ref, secret);
      return true;
    } catch (err) {
      setError(err);
      return false;
    } finally {
      setSecret("");
      setBusy(false);
    }
  };
  const reset = (): void => {
    setRef(initialRef);
    setSecret("");
    setError(null);
  };
  return { ref, setRef, secret, setSecret, error, refError, ready, store, reset };
}
