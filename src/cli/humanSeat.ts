// `waypoint run --human Alice`: a person in a robot's seat at the terminal (RoCo's real-world setting). Each time
// that robot speaks, the person sees what the architecture shows a person (its observation, options, feedback and
// the chat so far) and types the turn; a blank line ends it (turns may span lines, e.g. an EXECUTE block). End of
// input gives up, which cancels the episode. The trace marks these turns as human.
import { createInterface } from 'node:readline';
import type { HumanSeat } from '../core/engine/human.js';

export function terminalSeat(agents: readonly string[], input: NodeJS.ReadableStream, output: NodeJS.WritableStream): HumanSeat & { close(): void } {
  const rl = createInterface({ input, terminal: false });
  const lines: string[] = [];
  const waiting: ((line: string | null) => void)[] = [];
  let ended = false;
  rl.on('line', (l) => (waiting.length > 0 ? waiting.shift()!(l) : lines.push(l)));
  rl.on('close', () => {
    ended = true;
    for (const w of waiting.splice(0)) w(null);
  });
  const nextLine = (): Promise<string | null> => (lines.length > 0 ? Promise.resolve(lines.shift()!) : ended ? Promise.resolve(null) : new Promise((r) => waiting.push(r)));
  return {
    agents,
    async ask(turn, signal) {
      output.write(`\n──── your turn as ${turn.agent} (round ${turn.round ?? '?'}, turn ${turn.turn}) ────\n${turn.view}\n(type ${turn.agent}'s answer; a blank line sends it)\n> `);
      const typed: string[] = [];
      while (!signal.aborted) {
        const line = await nextLine();
        if (line === null) return typed.length > 0 ? typed.join('\n') : null;
        if (line.trim() === '' && typed.length > 0) return typed.join('\n');
        if (line.trim() !== '') typed.push(line);
      }
      return null;
    },
    close: () => rl.close(),
  };
}
