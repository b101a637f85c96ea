/** Browser product tokens, most specific first (Edge and Opera also say Chrome and Safari). */
const BROWSERS: readonly [RegExp, string][] = [
  [/Edg\/(\d+)/, "Edge"],
  [/OPR\/(\d+)/, "Opera"],
  [/Firefox\/(\d+)/, "Firefox"],
  [/Chrom(?:e|ium)\/(\d+)/, "Chrome"],
  [/Version\/(\d+)[^ ]* Safari\//, "Safari"],
];
const SYSTEMS: readonly [RegExp, string][] = [
  [/Android/, "Android"],
  [/iPhone|iPad/, "iOS"],
  [/Mac OS X|Macintosh/, "macOS"],
  [/Windows/, "Windows"],
  [/CrOS/, "ChromeOS"],
  [/Linux|X11/, "Linux"],
];

/**
 * A short, printable summary of a User-Agent for the audit ("Firefox 128 on Linux",
 * "curl/8.5.0"): enough to tell an owner's browser from a script, never the raw header
 * (unbounded, and whatever the client chose to put in it).
 */
export function clientSummary(userAgent: string | undefined): string {
  const ua = (userAgent ?? "").replace(/[^\x20-\x7e]/g, "").trim();
  if (!ua) return "unknown";
  for (const [pattern, name] of BROWSERS) {
    const version = pattern.exec(ua)?.[1];
    if (!version) continue;
    const system = SYSTEMS.find(([p]) => p.test(ua))?.[1];
    return system ? `${name} ${version} on ${system}` : `${name} ${version}`;
  }
  return (ua.split(" ")[0] ?? ua).slice(0, 40);
}
