// One wording of a size on every surface (the CLI and the phone say the same): protocol's.
export { humanSize } from "@coffer/protocol";
