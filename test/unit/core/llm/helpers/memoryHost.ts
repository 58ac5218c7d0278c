// In-memory HostIO for tests.
import type { HostIO } from '../../../../../src/core/host.js';

export class MemoryHost implements HostIO {
  readonly files = new Map<string, string>();
  readonly dirs = new Set<string>();
  failWrites = false;

  async readText(path: string): Promise<string> {
    const t = this.files.get(path);
    if (t === undefined) throw new Error(`ENOENT: ${path}`);
    return t;
  }
  async writeText(path: string, text: string): Promise<void> {
    if (this.failWrites) throw new Error(`EACCES: ${path}`);
    this.files.set(path, text);
  }
  async appendText(path: string, text: string): Promise<void> {
    this.files.set(path, (this.files.get(path) ?? '') + text);
  }
  async exists(path: string): Promise<boolean> {
    return this.files.has(path) || this.dirs.has(path);
  }
  async list(dir: string): Promise<string[]> {
    const prefix = dir.endsWith('/') ? dir : `${dir}/`;
    return [...new Set([...this.files.keys()].filter((p) => p.startsWith(prefix)).map((p) => p.slice(prefix.length).split('/')[0]!))].sort();
  }
  async mkdirp(dir: string): Promise<void> {
    this.dirs.add(dir);
  }
  async remove(path: string): Promise<void> {
    this.files.delete(path);
  }
}
