// Programs some tests need besides Node: Debian's Chromium at exactly /usr/bin/chromium (the webview tests drive
// it through playwright-core), python3 (the Python SDK, the simulator protocol's Python example, the household
// stand-in, the toy simulator behind `waypoint run --sim`, the host-Python runner) and numpy for it (one
// host-Python test). On a developer's machine a missing one skips those tests, and the skip says what is missing
// and how to install it. In CI (`CI` set, or WAYPOINT_REQUIRE_PREREQS=1, which .ci/run sets) a skip would let a
// run pass without testing, so a missing one is a failing test instead.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { test } from 'node:test';

export const CHROMIUM = '/usr/bin/chromium';
export type Prereq = 'chromium' | 'python3' | 'numpy';

const INSTALL: Record<Prereq, string> = {
  chromium: 'apt-get install -y chromium',
  python3: 'apt-get install -y python3',
  numpy: 'apt-get install -y python3-numpy',
};

/** True when a missing prerequisite must fail the run: WAYPOINT_REQUIRE_PREREQS=1, or CI set (and not "false"/"0"). */
export function prereqsRequired(env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.WAYPOINT_REQUIRE_PREREQS !== undefined) return env.WAYPOINT_REQUIRE_PREREQS === '1';
  return env.CI !== undefined && env.CI !== '' && env.CI !== 'false' && env.CI !== '0';
}

const runs = (cmd: string, args: string[]) => spawnSync(cmd, args, { stdio: 'ignore', timeout: 30_000 }).status === 0;

/** What is missing ("python3 not found (apt-get install -y python3)"), or undefined when `p` is there. */
export function missingPrereq(p: Prereq): string | undefined {
  const there = p === 'chromium' ? existsSync(CHROMIUM) : p === 'python3' ? runs('python3', ['-c', 'pass']) : runs('python3', ['-c', 'import numpy']);
  if (there) return undefined;
  const what = p === 'chromium' ? `chromium not found at ${CHROMIUM}` : p === 'python3' ? 'python3 not found on PATH' : 'python3 cannot import numpy';
  return `${what} (${INSTALL[p]})`;
}

const failed = new Set<Prereq>();

/**
 * The `skip` option for tests that need `p`: false when it is there. When it is missing: locally the reason
 * (the tests are reported as skipped with it); when required, a test named "prerequisite: ..." that fails is added
 * once per test file, and the dependent tests are skipped pointing at it.
 */
export function skipWithout(p: Prereq, env: NodeJS.ProcessEnv = process.env, probe: (p: Prereq) => string | undefined = missingPrereq): string | false {
  const why = probe(p);
  if (!why) return false;
  if (!prereqsRequired(env)) return `${why}; skipped here, fails in CI (CI or WAYPOINT_REQUIRE_PREREQS=1)`;
  if (!failed.has(p)) {
    failed.add(p);
    test(`prerequisite: ${p}`, () => {
      throw new Error(`${why}: required here (CI or WAYPOINT_REQUIRE_PREREQS=1), so the tests that need it fail instead of skipping`);
    });
  }
  return `${why}: see the failing "prerequisite: ${p}" test`;
}
