// Starts and stops code-server 4.100.3 (installed by scripts/e2e/install.sh) on loopback, in its own process group,
// with a fresh user-data-dir, so a test run can end every process it started by killing one group.
//   node scripts/e2e/codeServer.mjs start [--trust]   prints the URL, writes $E2E_DIR/server.json
//   node scripts/e2e/codeServer.mjs stop              kills that group and checks that nothing is left
import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

export const CS_VERSION = '4.100.3';
export const E2E_DIR = process.env.WAYPOINT_E2E_DIR || join(homedir(), '.cache', 'waypoint-e2e');
export const CS_BIN = join(E2E_DIR, `code-server-${CS_VERSION}`, 'node_modules', '.bin', 'code-server');

const USER_SETTINGS = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'telemetry.telemetryLevel': 'off',
  'extensions.autoUpdate': false,
  'extensions.autoCheckUpdates': false,
  'extensions.ignoreRecommendations': true,
  'update.mode': 'none',
  'chat.disableAIFeatures': true,
  'window.commandCenter': false,
  'workbench.editor.enablePreview': false,
  // code-server announces every port a process opens (the reference model server, ...): not what we test.
  'remote.autoForwardPorts': false,
};

function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/** Process ids whose process group is `pgid` (Linux /proc; the group outlives its leader while members live). */
export function groupMembers(pgid) {
  const out = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // Fields after the parenthesised command: state ppid pgrp ...
      const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(rest[2]) === pgid && rest[0] !== 'Z') out.push(Number(name));
    } catch {
      // The process ended while we read /proc.
    }
  }
  return out;
}

/** Processes whose command line mentions `needle` (used to prove nothing from a run's folder is left). */
export function processesMentioning(needle) {
  const out = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      const cmd = readFileSync(`/proc/${name}/cmdline`, 'utf8').replaceAll('\0', ' ');
      if (cmd.includes(needle)) out.push(`${name} ${cmd.slice(0, 160)}`);
    } catch {
      // ended meanwhile
    }
  }
  return out;
}

async function waitHealthy(origin, child, logFile, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      throw new Error(`code-server exited with code ${child.exitCode} before answering /healthz; log: ${logFile}\n${tail(logFile)}`);
    }
    try {
      const r = await fetch(`${origin}/healthz`, { signal: AbortSignal.timeout(1000) });
      if (r.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`code-server did not answer ${origin}/healthz within ${timeoutMs / 1000} s; log: ${logFile}\n${tail(logFile)}`);
}

function tail(file, lines = 20) {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

/**
 * Starts code-server. `trust`: leave workspace trust on (new folders open in Restricted Mode); default off, as in
 * the recipe, so the tests are not stopped by the trust dialog.
 * @param {{ runDir?: string, trust?: boolean, label?: string }} [opts]
 */
export async function startCodeServer(opts = {}) {
  if (!existsSync(CS_BIN)) throw new Error(`code-server ${CS_VERSION} is not installed at ${CS_BIN}; run bash scripts/e2e/install.sh`);
  mkdirSync(E2E_DIR, { recursive: true });
  const runDir = opts.runDir ?? mkdtempSync(join(E2E_DIR, 'run-'));
  const label = opts.label ?? (opts.trust ? 'trust' : 'main');
  const userDataDir = join(runDir, `ud-${label}`);
  const extensionsDir = join(runDir, `exts-${label}`);
  rmSync(userDataDir, { recursive: true, force: true });
  mkdirSync(join(userDataDir, 'User'), { recursive: true });
  mkdirSync(extensionsDir, { recursive: true });
  const settings = { ...USER_SETTINGS, 'security.workspace.trust.enabled': !!opts.trust };
  if (opts.trust) Object.assign(settings, { 'security.workspace.trust.startupPrompt': 'never', 'security.workspace.trust.emptyWindow': false });
  writeFileSync(join(userDataDir, 'User', 'settings.json'), JSON.stringify(settings, null, 2));
  const port = await freePort();
  // Without --config code-server writes ~/.config/code-server/config.yaml.
  const config = join(runDir, `cs-config-${label}.yaml`);
  writeFileSync(config, `bind-addr: 127.0.0.1:${port}\nauth: none\n`);
  const logFile = join(runDir, `code-server-${label}.log`);
  const fd = openSync(logFile, 'w');
  const args = [
    '--bind-addr', `127.0.0.1:${port}`, '--auth', 'none', '--disable-telemetry', '--disable-update-check',
    '--disable-getting-started-override', '--config', config, '--user-data-dir', userDataDir, '--extensions-dir', extensionsDir,
  ];
  if (!opts.trust) args.push('--disable-workspace-trust');
  // detached = setsid: the server, its extension hosts and file watchers share one new process group.
  // XDG_*: code-server keeps logs and a heartbeat file under ~/.local/share unless told otherwise.
  const child = spawn(CS_BIN, args, {
    detached: true,
    stdio: ['ignore', fd, fd],
    env: { ...process.env, XDG_CONFIG_HOME: join(runDir, 'xdg-config'), XDG_DATA_HOME: join(runDir, `xdg-data-${label}`) },
  });
  closeSync(fd);
  const pgid = child.pid;
  // Lets a later run find and end this group if this process dies without stopping it (reapStale).
  writeFileSync(join(runDir, `code-server-${label}.pgid`), String(pgid));
  writeFileSync(join(runDir, 'owner.pid'), String(process.pid));
  const origin = `http://127.0.0.1:${port}`;
  const server = {
    origin, port, pgid, runDir, userDataDir, extensionsDir, logFile, child,
    /** Kills the whole group (TERM, then KILL after 5 s) and resolves once no member is left. */
    async stop() {
      const signal = (sig) => { try { process.kill(-pgid, sig); } catch { /* group already gone */ } };
      signal('SIGTERM');
      for (let i = 0; i < 50 && groupMembers(pgid).length > 0; i++) await new Promise((r) => setTimeout(r, 100));
      if (groupMembers(pgid).length > 0) signal('SIGKILL');
      for (let i = 0; i < 50 && groupMembers(pgid).length > 0; i++) await new Promise((r) => setTimeout(r, 100));
      const left = groupMembers(pgid);
      if (left.length > 0) throw new Error(`code-server process group ${pgid} still has processes after SIGKILL: ${left.join(', ')}`);
    },
  };
  try {
    await waitHealthy(origin, child, logFile, 30_000);
  } catch (e) {
    await server.stop().catch(() => {});
    throw e;
  }
  return server;
}

function ownerAlive(dir) {
  try {
    const pid = Number(readFileSync(join(dir, 'owner.pid'), 'utf8'));
    return pid > 1 && readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('node');
  } catch {
    return false;
  }
}

/**
 * Ends what an earlier run left behind when it died before stopping (SIGKILL, closed pipe): for every run-* folder
 * under E2E_DIR other than `keep` whose runner is gone, kills the recorded code-server groups whose processes still use that folder,
 * then removes the folder. Returns one line per group killed.
 */
export async function reapStale(keep) {
  const killed = [];
  let names = [];
  try { names = readdirSync(E2E_DIR).filter((n) => n.startsWith('run-')); } catch { return killed; }
  for (const name of names) {
    const dir = join(E2E_DIR, name);
    // Another run in progress (e.g. a benchmark beside the tests), or one that is just starting.
    if (dir === keep || ownerAlive(dir) || existsSync(join(dir, 'manual')) || Date.now() - statSync(dir).mtimeMs < 60_000) continue;
    for (const f of readdirSync(dir).filter((n) => n.endsWith('.pgid'))) {
      const pgid = Number(readFileSync(join(dir, f), 'utf8'));
      if (!(pgid > 1) || groupMembers(pgid).length === 0 || processesMentioning(dir).length === 0) continue;
      try { process.kill(-pgid, 'SIGKILL'); } catch { /* gone meanwhile */ }
      killed.push(`code-server group ${pgid} of ${dir}`);
    }
    for (let i = 0; i < 30 && processesMentioning(dir).length > 0; i++) await new Promise((r) => setTimeout(r, 100));
    if (processesMentioning(dir).length === 0) rmSync(dir, { recursive: true, force: true });
  }
  return killed;
}

/** A workbench URL that opens `folder` with extra `payload` entries (extensionDevelopmentPath, extensionTestsPath). */
export function workbenchUrl(origin, folder, payload = []) {
  const authority = new URL(origin).host;
  const remote = (p) => `vscode-remote://${authority}${p}`;
  const entries = payload.map(([k, v]) => [k, v.startsWith('/') ? remote(v) : v]);
  let url = `${origin}/?folder=${encodeURIComponent(folder)}`;
  if (entries.length > 0) url += `&payload=${encodeURIComponent(JSON.stringify(entries))}`;
  return url;
}

// CLI for manual use.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const state = join(E2E_DIR, 'server.json');
  const [cmd] = process.argv.slice(2);
  if (cmd === 'start') {
    const s = await startCodeServer({ trust: process.argv.includes('--trust') });
    s.child.unref(); // let this CLI exit while the server runs on
    writeFileSync(join(s.runDir, 'manual'), 'started by codeServer.mjs start; ended by its stop\n');
    writeFileSync(state, JSON.stringify({ origin: s.origin, pgid: s.pgid, runDir: s.runDir, logFile: s.logFile }));
    console.log(`code-server ${CS_VERSION} at ${s.origin} (process group ${s.pgid}, log ${s.logFile}); stop: node scripts/e2e/codeServer.mjs stop`);
  } else if (cmd === 'stop') {
    if (!existsSync(state)) {
      console.error(`no running server recorded in ${state}`);
      process.exit(1);
    }
    const { pgid, runDir } = JSON.parse(readFileSync(state, 'utf8'));
    try { process.kill(-pgid, 'SIGTERM'); } catch { /* already gone */ }
    for (let i = 0; i < 50 && groupMembers(pgid).length > 0; i++) await new Promise((r) => setTimeout(r, 100));
    try { process.kill(-pgid, 'SIGKILL'); } catch { /* already gone */ }
    rmSync(state);
    const left = groupMembers(pgid);
    if (left.length === 0) rmSync(runDir, { recursive: true, force: true });
    console.log(left.length === 0 ? `stopped process group ${pgid}` : `processes left in group ${pgid}: ${left.join(', ')}`);
    process.exit(left.length === 0 ? 0 : 1);
  } else {
    console.error('usage: node scripts/e2e/codeServer.mjs start [--trust] | stop');
    process.exit(2);
  }
}
