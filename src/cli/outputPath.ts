// Where an export may be written: the folder must exist already (a typo in a path should not create a tree of
// folders somewhere), and the path must not be a folder itself. Returns the reason it cannot, or null.
import { statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

export function outputPathProblem(path: string): string | null {
  const abs = resolve(path);
  const dir = dirname(abs);
  let st;
  try {
    st = statSync(dir);
  } catch {
    return `cannot write ${path}: the folder ${dir} does not exist`;
  }
  if (!st.isDirectory()) return `cannot write ${path}: ${dir} is not a folder`;
  try {
    if (statSync(abs).isDirectory()) return `cannot write ${path}: it is a folder`;
  } catch {
    // does not exist yet: fine
  }
  return null;
}
