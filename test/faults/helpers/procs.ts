// Linux /proc look-ups for the killed-run cases: which processes a CLI started, whether they still run, and how
// much CPU they have used (to know a block is really spinning before the kill).
import { readdirSync, readFileSync } from 'node:fs';

function stat(pid: number): string[] | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after "(comm)": state is [0], ppid [1], utime [11], stime [12].
    return text.slice(text.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

export function isAlive(pid: number): boolean {
  const s = stat(pid);
  return s !== undefined && s[0] !== 'Z';
}

export function cpuTicks(pid: number): number {
  const s = stat(pid);
  return s ? Number(s[11]) + Number(s[12]) : 0;
}

function cmdline(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
  } catch {
    return '';
  }
}

/** Live descendants of `root` whose command line contains `needle`. */
export function descendants(root: number, needle: string): number[] {
  const parent = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const s = stat(Number(name));
    if (s) parent.set(Number(name), Number(s[1]));
  }
  const under = (pid: number): boolean => {
    for (let p = parent.get(pid), depth = 0; p !== undefined && depth < 10; p = parent.get(p), depth++) if (p === root) return true;
    return false;
  };
  return [...parent.keys()].filter((pid) => under(pid) && isAlive(pid) && cmdline(pid).includes(needle));
}

/** Polls `condition` every 50 ms until it holds; fails with `what` after `limitMs` (a bound, not a measurement). */
export async function waitFor(condition: () => boolean, what: string, limitMs = 30_000): Promise<void> {
  for (let waited = 0; !condition(); waited += 50) {
    if (waited >= limitMs) throw new Error(`gave up waiting for ${what} after ${limitMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Whether `condition` comes true within `limitMs`. */
export async function becomes(condition: () => boolean, limitMs: number): Promise<boolean> {
  try {
    await waitFor(condition, 'condition', limitMs);
    return true;
  } catch {
    return false;
  }
}
