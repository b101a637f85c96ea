/**
 * A token count short enough for a small gauge: 950 → "950", 1234 → "1.2k", 200000 → "200k",
 * 1000000 → "1M", 1500000 → "1.5M". The one formatter for token counts on the page (a model's
 * million-token window read "1000k").
 */
export function formatTokens(n: number): string {
  if (n < 1000) return String(n);
  if (n < 10_000) return `${trim((n / 1000).toFixed(1))}k`;
  // 999,500 rounds to a thousand thousands: that is "1M", never "1000k".
  if (Math.round(n / 1000) < 1000) return `${Math.round(n / 1000)}k`;
  const millions = n / 1_000_000;
  return `${trim(millions < 10 ? millions.toFixed(1) : String(Math.round(millions)))}M`;
}

const trim = (s: string): string => s.replace(/\.0$/, "");
