// This process and its live descendants (sweep workers, their Pyodide sandbox processes), read from /proc: CPU
// seconds used so far (utime + stime in USER_HZ ticks, 100 per second on Linux) and, when asked, the summed RSS.
// Live processes are read directly: a worker's time would reach cutime only after it is reaped. Linux only: throws
// where /proc is missing.
import { readdirSync, readFileSync } from 'node:fs';

export function processTree(o: { rss?: boolean } = {}): { cpu: number; rss: number } {
  const procs = new Map<number, { ppid: number; cpu: number }>();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      // After the command name: state, ppid, ..., utime and stime are fields 12-13 (0-based 11-12) from there.
      const f = readFileSync(`/proc/${d}/stat`, 'utf8').replace(/^.*\) /s, '').split(' ');
      procs.set(Number(d), { ppid: Number(f[1]), cpu: (Number(f[11]) + Number(f[12])) / 100 });
    } catch {
      // the process ended while the list was read
    }
  }
  let rss = 0;
  let cpu = 0;
  for (const [pid, p] of procs) {
    let q: number | undefined = pid;
    while (q && q !== process.pid) q = procs.get(q)?.ppid;
    if (q !== process.pid) continue;
    cpu += p.cpu;
    if (!o.rss) continue;
    try {
      const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      rss += kb ? Number(kb[1]) * 1024 : 0;
    } catch {
      // ended
    }
  }
  return { cpu, rss };
}
