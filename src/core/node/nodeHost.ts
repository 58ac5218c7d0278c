// The Node implementations of the core's injected host interfaces (CLI, language server, tests).
// This folder is the one place in core allowed to read the real clock and file system.
import { appendFile, mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Clock, HostIO } from '../host.js';

export const nodeIO: HostIO = {
  readText: (path) => readFile(path, 'utf8'),
  async writeText(path, text) {
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, text, 'utf8');
  },
  async appendText(path, text) {
    // appendFile opens with O_APPEND and closes the fd, so each line reaches the OS before the next event.
    await appendFile(path, text, 'utf8');
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
  remove: (path) => rm(path, { recursive: true, force: true }),
};

export const nodeClock: Clock = {
  nowMs: () => performance.now(),
  isoNow: () => new Date().toISOString(),
};
