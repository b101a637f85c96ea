/**
 * One request body sent with XMLHttpRequest, because only it reports upload progress (fetch has
 * no upload progress events in any browser the page supports). The answer comes back raw: the
 * caller (client.ts) parses it with the route's schema and turns an envelope into an ApiError.
 */
export interface XhrAnswer {
  readonly status: number;
  readonly text: string;
}

export interface XhrUpload {
  readonly done: Promise<XhrAnswer>;
  readonly abort: () => void;
}

/** Rejects only when nothing came back (network down, aborted); any HTTP status resolves. */
export function xhrUpload(url: string, headers: Record<string, string>, body: Blob, onProgress: (fraction: number) => void): XhrUpload {
  const xhr = new XMLHttpRequest();
  const done = new Promise<XhrAnswer>((resolve, reject) => {
    xhr.open("POST", url);
    for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && e.total > 0) onProgress(e.loaded / e.total);
    };
    xhr.onload = () => resolve({ status: xhr.status, text: xhr.responseText });
    xhr.onerror = () => reject(new Error("the connection failed"));
    xhr.onabort = () => reject(new Error("cancelled"));
    xhr.send(body);
  });
  return { done, abort: () => xhr.abort() };
}
