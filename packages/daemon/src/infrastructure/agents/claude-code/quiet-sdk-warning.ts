/**
 * The Agent SDK warns on every session that `canUseTool` "will not be invoked" under
 * `bypassPermissions`. For us that is the point: every tool is approved, and the SDK still asks
 * the callback about AskUserQuestion, which is all Coffer uses it for (docs/decisions.md,
 * "Owner in the loop"). Printed per session it would fill the owner's terminal, so this one
 * warning code is dropped; every other process warning passes through untouched.
 */
const SHADOWED = "CLAUDE_SDK_CAN_USE_TOOL_SHADOWED";
let installed = false;

export function quietCanUseToolWarning(): void {
  if (installed) return;
  installed = true;
  const emit = process.emitWarning.bind(process) as (...args: unknown[]) => void;
  process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
    const options = rest[0];
    const code = typeof options === "object" && options !== null ? (options as { code?: string }).code : rest[1];
    if (code === SHADOWED) return;
    emit(warning, ...rest);
  }) as typeof process.emitWarning;
}
