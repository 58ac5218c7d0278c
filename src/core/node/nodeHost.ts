// The Node implementations of the core's injected host interfaces (CLI, language server, tests).
// This folder is the one place in core allowed to read the real clock and file system.
import { mkdir, open, readdir, readFile, rm, stat, writeFile, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Clock, HostIO } from '../host.js';

// Traces are appended line by line; reopening the file for every event cost more than the engine itself.
// Handles stay open (append mode; every write reaches the OS before the next event), up to one per trace a sweep
// worker has in flight; past that the least recently used is closed, but only once its writes have finished (a
// worker with many episodes in flight evicts handles other episodes are writing through).
const MAX_OPEN_APPENDERS = 128;
interface Appender {
  handle: Promise<FileHandle>;
  writing: number;
  evicted: boolean;
}
const appenders = new Map<string, Appender>();

function closeWhenIdle(a: Appender): Promise<void> {
  return a.writing === 0 ? a.handle.then((fh) => fh.close()).catch(() => undefined) : Promise.resolve();
}

function appender(path: string): Appender {
  let a = appenders.get(path);
  if (a) {
    appenders.delete(path);
    appenders.set(path, a);
    return a;
  }
  a = { handle: open(path, 'a'), writing: 0, evicted: false };
  appenders.set(path, a);
  const opened = a;
  a.handle.catch(() => {
    if (appenders.get(path) === opened) appenders.delete(path);
  });
  if (appenders.size > MAX_OPEN_APPENDERS) {
    const [oldest, old] = appenders.entries().next().value as [string, Appender];
    appenders.delete(oldest);
    old.evicted = true;
    void closeWhenIdle(old);
  }
  return a;
}

async function dropAppender(path: string): Promise<void> {
  const a = appenders.get(path);
  if (!a) return;
  appenders.delete(path);
  a.evicted = true;
  await closeWhenIdle(a);
}

export const nodeIO: HostIO = {
  readText: (path) => readFile(path, 'utf8'),
  async writeText(path, text) {
    await dropAppender(path);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, text, 'utf8');
  },
  async appendText(path, text) {
    const a = appender(path);
    a.writing++;
    try {
      await (await a.handle).write(text, null, 'utf8');
    } finally {
      a.writing--;
      if (a.evicted) void closeWhenIdle(a);
    }
  },
  async exists(path) {
    try {
      await stat(path);
      return true;
    } catch {
      return false;
    }
  },
  async list(dir) {
    try {
      return (await readdir(dir)).sort();
    } catch {
      return [];
    }
  },
  mkdirp: async (dir) => {
    await mkdir(dir, { recursive: true });
  },
  async remove(path) {
    for (const p of [...appenders.keys()]) if (p === path || p.startsWith(`${path}/`)) await dropAppender(p);
    await rm(path, { recursive: true, force: true });
  },
  async modifiedMs(path) {
    try {
      return (await stat(path)).mtimeMs;
    } catch {
      return undefined;
    }
  },
};

export const nodeClock: Clock = {
  nowMs: () => performance.now(),
  isoNow: () => new Date().toISOString(),
};
