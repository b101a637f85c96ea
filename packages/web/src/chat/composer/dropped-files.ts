/**
 * Files from a drop or a paste. A drop can carry folders: they are named (and refused), never
 * read, since the daemon takes one file per attachment.
 */
export function droppedFiles(data: DataTransfer): { files: File[]; folders: string[] } {
  const files: File[] = [];
  const folders: string[] = [];
  for (const item of [...data.items]) {
    if (item.kind !== "file") continue;
    const entry = item.webkitGetAsEntry?.();
    const file = item.getAsFile();
    if (entry?.isDirectory) folders.push(entry.name);
    else if (file) files.push(file);
  }
  return { files, folders };
}

/** A pasted screenshot is "image.png" every time: a name with the time tells two of them apart. */
export function pastedName(file: File, now = new Date()): File {
  if (!/^image\.\w+$/.test(file.name)) return file;
  const stamp = now.toISOString().slice(0, 19).replace(/[-:]/g, "").replace("T", "-");
  return new File([file], `pasted-${stamp}${file.name.slice("image".length)}`, { type: file.type, lastModified: file.lastModified });
}
