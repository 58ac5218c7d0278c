// Imported first by the fault suite's entry, before any product module: every fault case runs with a temporary
// HOME and TMPDIR of its own, so the suite can prove that nothing is written outside a run's `.waypoint/` folder.
// (os.homedir() and os.tmpdir() read these variables on each call; child processes inherit them.)
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Root of everything the suite creates; removed by the entry's `after` hook. */
export const ROOT = realpathSync(mkdtempSync(join(tmpdir(), 'waypoint-faults-')));
export const FAKE_HOME = join(ROOT, 'home');
export const FAKE_TMP = join(ROOT, 'tmp');
/** A file in the fake home that sandboxed code tries to read (it must never see it). */
export const HOME_SECRET = join(FAKE_HOME, 'secret.txt');
export const HOME_SECRET_TEXT = 'waypoint-fault-home-secret';

/** Recognisable and never a real credential; every file written during the suite is searched for it. */
export const FAKE_KEY = 'sk-waypoint-fault-7f3c9a1e5b2d4c60';

mkdirSync(FAKE_HOME, { recursive: true });
mkdirSync(FAKE_TMP, { recursive: true });
writeFileSync(HOME_SECRET, HOME_SECRET_TEXT);
process.env.HOME = FAKE_HOME;
process.env.TMPDIR = FAKE_TMP;
// A key in the environment that the product must not pick up on its own (it reads keys only when told to).
process.env.OPENAI_API_KEY = FAKE_KEY;

let counter = 0;
/** A fresh workspace folder under ROOT (not under HOME or TMPDIR, which are snapshotted separately). */
export function newWorkspace(label: string): string {
  const dir = join(ROOT, `ws-${String(++counter).padStart(2, '0')}-${label.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 40)}`);
  mkdirSync(dir, { recursive: true });
  // An ordinary file of the user's: it must be byte-identical after the run.
  writeFileSync(join(dir, 'notes.md'), '# my notes\n');
  return dir;
}
