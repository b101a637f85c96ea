import { useEffect, useState } from "react";

/** False for the first `ms`, then true: a loading state shown this late never flashes on a fast load. */
export function useShownAfter(ms: number): boolean {
  const [shown, setShown] = useState(false);
  useEffect(() => {
    const t = setTimeout(() => setShown(true), ms);
    return () => clearTimeout(t);
  }, [ms]);
  return shown;
}
