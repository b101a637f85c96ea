/** One raw POST /attachments, as the page and the CLI send it; throws unless it is stored (201). */
export async function uploadAttachment(daemon: { url: string; token: string }, name: string, mediaType: string, bytes: Buffer): Promise<string> {
  const res = await fetch(`${daemon.url}/api/v1/attachments?name=${encodeURIComponent(name)}`, {
    method: "POST",
    headers: { authorization: `Bearer ${daemon.token}`, "content-type": mediaType },
    body: bytes,
  });
  if (res.status !== 201) throw new Error(`upload of ${name} failed: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { id: string }).id;
}
