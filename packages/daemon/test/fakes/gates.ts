/**
 * Named gates for the fake model servers' `GATE <name>` directive and the scripted agent's
 * `gate` step: a turn waits on `opened(name)` until the test calls `open(name)` — before or
 * after the turn arrived.
 */
export class Gates {
  private readonly gates = new Map<string, { opened: Promise<void>; open: () => void }>();

  open(name: string): void {
    this.gate(name).open();
  }

  opened(name: string): Promise<void> {
    return this.gate(name).opened;
  }

  private gate(name: string) {
    let g = this.gates.get(name);
    if (!g) {
      let open!: () => void;
      const opened = new Promise<void>((r) => (open = r));
      g = { opened, open };
      this.gates.set(name, g);
    }
    return g;
  }
}
