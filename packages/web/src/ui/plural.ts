/** "1 model", "2 models": a count with its noun, singular for exactly one. `many` for irregular plurals. */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString()} ${n === 1 ? one : many}`;
}
