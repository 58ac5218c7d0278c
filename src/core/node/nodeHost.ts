// The Node implementations of the core's injected host interfaces (CLI, language server, tests).
// This folder is the one place in core allowed to read the real clock and file system.
import { mkdir, open, readdir, readFile, rm, stat, writeFile, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Clock, HostIO } from '../host.js';

// Traces are appended line by line; reopening the file for every event cost more than the engine itself.
// A few handles stay open (opened in append mode; every write reaches the OS before the next event), the
// least recently used is closed when more are needed.
const MAX_OPEN_APPENDERS = 8;
const appenders = new Map<string, Promise<FileHandle>>();

async function appender(path: string): Promise<FileHandle> {
  let h = appenders.get(path);
  if (h) {
    appenders.delete(path);
    appenders.set(path, h);
    return h;
  }
  h = open(path, 'a');
  appenders.set(path, h);
  h.catch(() => appenders.delete(path));
  if (appenders.size > MAX_OPEN_APPENDERS) {
    const [oldest, handle] = appenders.entries().next().value as [string, Promise<FileHandle>];
    appenders.delete(oldest);
    void handle.then((fh) => fh.close()).catch(() => undefined);
  }
  return h;
}

async function dropAppender(path: string): Promise<void> {
  const h = appenders.get(path);
  if (!h) return;
  appenders.delete(path);
  await h.then((fh) => fh.close()).catch(() => undefined);
}

export const nodeIO: HostIO = {
  readText: (path) => readFile(path, 'utf8'),
  async writeText(path, text) {
    await dropAppender(path);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, text, 'utf8');
  },
  async appendText(path, text) {
    const fh = await appender(path);
    await fh.write(text, null, 'utf8');
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
