/** A failed file-system call (it has an errno code), as opposed to a bug. */
export function isErrno(err: unknown): err is NodeJS.ErrnoException {
  return err instanceof Error && typeof (err as NodeJS.ErrnoException).code === "string";
}

/** Why a path could not be read, in words for an import report (never a stack). */
export function unreadable(err: NodeJS.ErrnoException): string {
  switch (err.code) {
    case "EACCES":
    case "EPERM":
      return "permission denied";
    case "ENOENT":
      return "no longer there";
    case "ELOOP":
      return "symbolic link loop";
    case "ENOTDIR":
      return "not a folder";
    case "EISDIR":
      return "a folder where a file should be";
    default:
      return `cannot be read (${err.code})`;
  }
}

/** Why an uploaded file could not be written where its path says, in words (never a stack). */
export function unwritable(err: NodeJS.ErrnoException): string {
  switch (err.code) {
    case "ENAMETOOLONG":
      return "a name in the path is too long for the file system";
    case "EEXIST":
    case "ENOTDIR":
      return "a file is in the way of a folder";
    case "EISDIR":
      return "a folder is in the way of a file";
    default:
      return unreadable(err);
  }
}
