import { stdin, stderr } from "node:process";

/**
 * A secret from stdin when it is piped (`printf %s "$KEY" | coffer cred set k`), otherwise
 * from a prompt on the terminal that echoes nothing. One trailing newline is dropped.
 */
export async function readSecret(prompt: string): Promise<string> {
  if (!stdin.isTTY) {
    let text = "";
    stdin.setEncoding("utf8");
    for await (const chunk of stdin) text += chunk as string;
    return text.replace(/\r?\n$/, "");
  }
  return hiddenPrompt(prompt);
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
