// Reading and writing <folder>/.waypoint/variants.yaml for the editor features (node fs; the file is small).
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { VARIANTS_FILE } from '../../core/prompt/variants.js';
import { readVariants, type VariantsRead } from './variantsFile.js';

export function variantsPath(root: string): string {
  return join(root, VARIANTS_FILE);
}

export async function readVariantsText(root: string): Promise<string | undefined> {
  try {
    return await readFile(variantsPath(root), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

export async function loadVariantsAt(root: string | undefined): Promise<VariantsRead> {
  if (!root) return readVariants(VARIANTS_FILE, undefined);
  const path = variantsPath(root);
  try {
    return readVariants(path, await readVariantsText(root));
  } catch (err) {
    return { ...readVariants(path, undefined), error: `cannot read ${path}: ${err instanceof Error ? err.message : String(err)}` };
  }
}

/** Rewrites the file through `edit` (which receives '' when it does not exist yet), creating .waypoint/ if needed. */
export async function editVariantsFile(root: string, edit: (text: string) => string): Promise<string> {
  const path = variantsPath(root);
  const next = edit((await readVariantsText(root)) ?? '');
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, next, 'utf8');
  return path;
}
