import { stdin, stderr } from "node:process";

/**
 * A secret from stdin when it is piped (`printf %s "$KEY" | coffer cred set k`), otherwise
 * from a prompt on the terminal that echoes nothing. One trailing newline is dropped.
 */
export async function readSecret(prompt: string): Promise<string> {
  if (!stdin.isTTY) return (await allOfStdin()).replace(/\r?\n$/, "");
  return hiddenPrompt(prompt);
}

/**
 * Several values in a row (a channel's credentials): piped stdin gives one per line, in the order
 * asked; on a terminal each has its own prompt, echoing nothing when `hidden` (a secret).
 */
export async function readValues(asks: readonly { prompt: string; hidden: boolean }[]): Promise<string[]> {
  if (!asks.length) return [];
  if (!stdin.isTTY) {
    const lines = (await allOfStdin()).split(/\r?\n/);
    return asks.map((_, i) => lines[i] ?? "");
  }
  const values: string[] = [];
  for (const ask of asks) values.push(ask.hidden ? await hiddenPrompt(ask.prompt) : await plainPrompt(ask.prompt));
  return values;
}

async function allOfStdin(): Promise<string> {
  let text = "";
  stdin.setEncoding("utf8");
  for await (const chunk of stdin) text += chunk as string;
  return text;
}

/** A non-secret value typed at the terminal, echoed as usual. */
async function plainPrompt(prompt: string): Promise<string> {
  const { createInterface } = await import("node:readline/promises");
  const rl = createInterface({ input: stdin, output: stderr });
  try {
    return (await rl.question(prompt)).trim();
  } finally {
    rl.close();
  }
}

function hiddenPrompt(prompt: string): Promise<string> {
  return new Promise((resolve, reject) => {
    stderr.write(prompt);
    let value = "";
    stdin.setRawMode(true);
    stdin.setEncoding("utf8");
    stdin.resume();
    const done = (result: string | Error) => {
      stdin.setRawMode(false);
      stdin.pause();
      stdin.off("data", onData);
      stderr.write("\n");
      if (result instanceof Error) reject(result);
      else resolve(result);
    };
    const onData = (chunk: string) => {
      for (const ch of chunk) {
        if (ch === "\r" || ch === "\n") return done(value);
        if (ch === "\u0003") return done(new Error("cancelled"));
        if (ch === "\u007f" || ch === "\b") value = value.slice(0, -1);
        else if (ch >= " ") value += ch;
      }
    };
    stdin.on("data", onData);
  });
}
