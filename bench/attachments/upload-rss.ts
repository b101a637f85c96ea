/**
 * The daemon's memory while files upload at once: N concurrent POST /attachments of one file on
 * disk (streamed from it, so the bench holds none of it either), against a daemon in its own
 * process. Its resident memory comes from /proc/<pid>/status: VmRSS now and VmHWM, the peak
 * since the counter was last reset — reset (clear_refs 5) after the idle reading, so the peak is
 * the uploads' and not the daemon's start.
 */
import { createReadStream, readFileSync, statSync, writeFileSync } from "node:fs";
import http from "node:http";

export interface UploadRss {
  /** VmRSS before the uploads, after a warm-up upload (MiB). */
  readonly idleMb: number;
  /** VmHWM over the uploads (MiB). */
  readonly peakMb: number;
  /** VmRSS once they all answered (MiB). */
  readonly afterMb: number;
  /** Bytes sent in all (MiB). */
  readonly sentMb: number;
  /** Wall time of the whole burst (ms). */
  readonly wallMs: number;
}

const MIB = 1024 * 1024;

/**
 * The bar on the daemon's growth over idle under 10 × 30 MB uploads: 60 MiB, two uploads' worth,
 * a fifth of the 300 MiB in flight. Streaming measured 3–17 MiB (garbage chunks awaiting a GC);
 * a route that reads each body whole measured 385 MiB. Two uploads, not one, so a late GC on a
 * loaded machine does not fail a streaming route.
 */
export const GROWTH_BAR_MB = 60;

/** VmRSS and VmHWM of a process, in MiB. */
export function memoryOf(pid: number): { rssMb: number; hwmMb: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+) kB`).exec(status)?.[1] ?? Number.NaN);
  return { rssMb: kb("VmRSS") / 1024, hwmMb: kb("VmHWM") / 1024 };
}

/** Resets the process's peak (VmHWM) to its current RSS (Linux: "5" > clear_refs). */
export function resetPeak(pid: number): void {
  writeFileSync(`/proc/${pid}/clear_refs`, "5");
}

/** One upload of a file on disk, streamed with its length as the page's fetch sends a File. */
export function uploadFile(url: string, token: string, file: string, name: string, mediaType: string): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${url}/api/v1/attachments?name=${encodeURIComponent(name)}`,
      { method: "POST", headers: { authorization: `Bearer ${token}`, "content-type": mediaType, "content-length": String(statSync(file).size) } },
      (res) => {
        let text = "";
        res.setEncoding("utf8").on("data", (c: string) => (text += c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : null }));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    createReadStream(file).pipe(req);
  });
}

/** `count` uploads of `file` at once; each must be stored whole (201 with its size). */
export async function measureUploadRss(d: { url: string; token: string; pid: number }, file: string, count: number): Promise<UploadRss> {
  const size = statSync(file).size;
  // A warm-up upload: the route's code is loaded and its first allocations made before "idle".
  const warm = await uploadFile(d.url, d.token, file, "warm-up.bin", "application/octet-stream");
  if (warm.status !== 201) throw new Error(`warm-up upload failed: ${warm.status} ${JSON.stringify(warm.body)}`);
  const idle = memoryOf(d.pid).rssMb;
  resetPeak(d.pid);
  const t0 = performance.now();
  const answers = await Promise.all(Array.from({ length: count }, (_, i) => uploadFile(d.url, d.token, file, `burst-${i}.bin`, "application/octet-stream")));
  const wallMs = performance.now() - t0;
  const bad = answers.find((a) => a.status !== 201 || a.body?.size !== size);
  if (bad) throw new Error(`an upload failed: ${bad.status} ${JSON.stringify(bad.body)}`);
  const { rssMb, hwmMb } = memoryOf(d.pid);
  return { idleMb: idle, peakMb: hwmMb, afterMb: rssMb, sentMb: (size * count) / MIB, wallMs };
}
