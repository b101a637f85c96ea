import { createInterface } from "node:readline";
import { stderr, stdin } from "node:process";
import { clean } from "./output.js";

/**
 * Asks a yes/no question on the terminal (the prompt on stderr, so stdout stays the command's
 * output). Only "y" or "yes" is a yes; Enter, anything else, Ctrl-C and Ctrl-D are a no.
 * Callers make sure stdin is a terminal first: a script gets a flag (e.g. --yes), not a prompt.
 */
export function confirm(question: string): Promise<boolean> {
  return new Promise((resolve) => {
    const rl = createInterface({ input: stdin, output: stderr, terminal: true });
    let answered = false;
    const finish = (yes: boolean) => {
      if (answered) return;
      answered = true;
      rl.close();
      resolve(yes);
    };
    rl.on("SIGINT", () => {
      stderr.write("\n");
      finish(false);
    });
    rl.on("close", () => finish(false));
    rl.question(clean(question), (answer) => finish(/^\s*y(es)?\s*$/i.test(answer)));
  });
}
