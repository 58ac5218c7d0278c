// Strict readers of LLaMAR's module answers. Each answer must be one dict with the module's keys (as the paper's
// prompts ask); the Actor's actions must name robots of this team and map to admissible actions. A problem comes
// back as one message the module is shown before it answers again.
import type { EpisodeEmbeddings } from '../../core/llm/embeddings.js';
import { matchAction, matchActionWithEmbeddings, type AdmissibleAction, type MatcherName, type MatcherOptions } from './actionMatcher.js';
import { pick, readDictAnswer, type Literal } from './dictAnswer.js';

export type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

const isStr = (v: Literal | undefined): v is string => typeof v === 'string';

/** "1. navigate to the fridge" -> "navigate to the fridge" (models number list items they were not asked to). */
const unnumbered = (s: string) => s.trim().replace(/^(?:\d+[.)]|[-*\u2022])\s+/, '').trim();

function strList(v: Literal | undefined, key: string): Parsed<string[]> {
  if (v === null || v === undefined) return { ok: true, value: [] };
  if (typeof v === 'string' && /^\s*(none|\[\s*\])\s*$/i.test(v)) return { ok: true, value: [] };
  // One string holding a numbered or bulleted list, one item a line.
  if (typeof v === 'string' && /\n/.test(v.trim())) return { ok: true, value: v.split('\n').map(unnumbered).filter((s) => s !== '') };
  if (!Array.isArray(v)) return { ok: false, error: `"${key}" must be a list of strings, such as ["first subtask", "second subtask"]` };
  const bad = v.findIndex((x) => typeof x !== 'string');
  if (bad >= 0) return { ok: false, error: `"${key}" item ${bad + 1} is not a string (write each item in quotes)` };
  return { ok: true, value: (v as string[]).map(unnumbered).filter((s) => s !== '') };
}

/**
 * The robot an action key is for: "Alice's action" (the prompt's form), "Alice's Action", "Alice action",
 * "Alice_action", "action_Alice"; undefined for other keys.
 */
function actionKeyRobot(key: string): string | undefined {
  const k = key.trim();
  const m = /^(.+?)(?:'s|s')?[\s_-]+action$/i.exec(k) ?? /^action[\s_-]+(?:of[\s_-]+|for[\s_-]+)?(.+)$/i.exec(k);
  return m ? m[1]!.trim() : undefined;
}

function requireKeys(d: Record<string, Literal>, keys: readonly string[]): string | undefined {
  const missing = keys.filter((k) => !pick(d, k).found);
  return missing.length > 0 ? `missing key${missing.length > 1 ? 's' : ''} ${missing.map((k) => `"${k}"`).join(', ')} (the answer has ${Object.keys(d).map((k) => `"${k}"`).join(', ') || 'no keys'})` : undefined;
}

export interface PlannerAnswer {
  reason: string;
  plan: string[];
}

export function parsePlanner(text: string): Parsed<PlannerAnswer> {
  const r = readDictAnswer(text);
  if (!r.ok) return r;
  const miss = requireKeys(r.value, ['reason', 'plan']);
  if (miss) return { ok: false, error: miss };
  const plan = strList(pick(r.value, 'plan').value, 'plan');
  if (!plan.ok) return plan;
  const reason = pick(r.value, 'reason').value;
  return { ok: true, value: { reason: isStr(reason) ? reason : String(reason ?? ''), plan: plan.value } };
}

export interface VerifierAnswer {
  reason: string;
  completed: string[];
}

export function parseVerifier(text: string): Parsed<VerifierAnswer> {
  const r = readDictAnswer(text);
  if (!r.ok) return r;
  const miss = requireKeys(r.value, ['reason', 'completed subtasks']);
  if (miss) return { ok: false, error: miss };
  const done = strList(pick(r.value, 'completed subtasks').value, 'completed subtasks');
  if (!done.ok) return done;
  const reason = pick(r.value, 'reason').value;
  return { ok: true, value: { reason: isStr(reason) ? reason : String(reason ?? ''), completed: done.value } };
}

export interface CorrectorAnswer {
  failureReason: string;
  /** Agent -> corrective action text ("None" dropped). */
  corrections: Record<string, string>;
}

const NONE = /^\s*(none|null|no action|n\/a|-)?\s*$/i;

export function parseCorrector(text: string, agents: readonly string[]): Parsed<CorrectorAnswer> {
  const r = readDictAnswer(text);
  if (!r.ok) return r;
  const miss = requireKeys(r.value, ['failure reason', 'corrective actions']);
  if (miss) return { ok: false, error: miss };
  const c = pick(r.value, 'corrective actions').value;
  const corrections: Record<string, string> = {};
  if (c !== null && c !== undefined && !(typeof c === 'string' && NONE.test(c))) {
    if (typeof c !== 'object' || Array.isArray(c)) return { ok: false, error: '"corrective actions" must be a dict from robot name to action (or "None")' };
    for (const [k, v] of Object.entries(c)) {
      const name = agents.find((a) => a.toLowerCase() === k.trim().toLowerCase());
      if (!name) return { ok: false, error: `"corrective actions" names ${JSON.stringify(k)}, who is not on this team (robots: ${agents.join(', ')})` };
      if (v !== null && !isStr(v)) return { ok: false, error: `the corrective action for ${name} must be a string` };
      if (isStr(v) && !NONE.test(v)) corrections[name] = v.trim();
    }
  }
  const fr = pick(r.value, 'failure reason').value;
  return { ok: true, value: { failureReason: isStr(fr) ? fr : fr === null ? 'None' : String(fr), corrections } };
}

export interface MatchedAction {
  /** What the model wrote. */
  text: string;
  action: AdmissibleAction;
  score: number;
  candidates: { text: string; score: number }[];
  /** Which matcher chose it (kept in the trace with the parsed answer). */
  matcher: MatcherName;
  /** Why the lexical matcher chose although the run has an embedding model (no embeddings, a failed call). */
  fallback?: string;
}

export interface ActorAnswer {
  failureReason?: string;
  memory: string;
  reason: string;
  subtask: string;
  actions: Record<string, MatchedAction>;
}

/**
 * The Actor's (and the central planner's) dict: "memory", "reason", "subtask" (Actor) and "<Robot>'s action" for
 * every robot. A key for a robot that is not on the team, a missing robot, an action that matches nothing
 * admissible or names an object no robot has seen: each is an error naming it.
 */
export async function parseActor(
  text: string,
  agents: readonly string[],
  known: readonly string[],
  opts: MatcherOptions & { keys: readonly string[]; shape?: 'act' | 'react'; embeddings?: EpisodeEmbeddings; signal?: AbortSignal },
): Promise<Parsed<ActorAnswer>> {
  const r = readDictAnswer(text);
  if (!r.ok) return r;
  const d = r.value;
  const miss = requireKeys(d, opts.keys);
  const problems: string[] = miss ? [miss] : [];
  // The baselines' shapes (App. E.2-E.3): {"Alice": "...", "Bob": "..."} (Act), or the same dict under "Action" (ReAct).
  if (opts.shape === 'react') {
    const a = pick(d, 'action');
    if (a.found && (typeof a.value !== 'object' || a.value === null || Array.isArray(a.value))) problems.push('"Action" must be a dictionary from robot name to action, such as {"Alice": "...", "Bob": "..."}');
    else if (a.found) for (const [who, v] of Object.entries(a.value as Record<string, Literal>)) d[`${who}'s action`] = v;
    if (a.key) delete d[a.key];
  } else if (opts.shape === 'act') {
    for (const k of Object.keys(d)) {
      const name = agents.find((x) => x.toLowerCase() === k.trim().toLowerCase());
      if (name) d[`${name}'s action`] = d[k]!;
    }
  }
  // {"actions": {"Alice": "...", "Bob": "..."}} (a JSON-minded model's grouping) reads as the robots' action keys.
  const grouped = pick(d, 'actions').value;
  if (grouped && typeof grouped === 'object' && !Array.isArray(grouped)) {
    for (const [who, v] of Object.entries(grouped)) if (!Object.keys(d).some((k) => actionKeyRobot(k)?.toLowerCase() === who.toLowerCase())) d[`${who}'s action`] = v;
  }
  const actionKeys = Object.keys(d).filter((k) => actionKeyRobot(k) !== undefined);
  const actions: Record<string, MatchedAction> = {};
  for (const k of actionKeys) {
    const who = actionKeyRobot(k)!;
    const name = agents.find((a) => a.toLowerCase() === who.toLowerCase());
    if (!name) {
      problems.push(`"${k}": ${who} is not on this team (robots: ${agents.join(', ')})`);
      continue;
    }
    const v = d[k];
    if (!isStr(v)) {
      problems.push(`"${k}" must be a string`);
      continue;
    }
    const m = opts.embeddings ? await matchActionWithEmbeddings(v, known, opts, opts.embeddings, opts.signal) : matchAction(v, known, opts);
    if (!m.ok) {
      problems.push(`${name}'s action "${v}": ${m.error}`);
      continue;
    }
    actions[name] = { text: v, action: m.action, score: Math.round(m.score * 1000) / 1000, candidates: m.candidates, matcher: m.matcher, ...(m.fallback ? { fallback: m.fallback } : {}) };
  }
  const absent = agents.filter((a) => !actionKeys.some((k) => actionKeyRobot(k)!.toLowerCase() === a.toLowerCase()));
  if (absent.length > 0) problems.push(`missing ${absent.map((a) => `"${a}'s action"`).join(', ')}`);
  if (problems.length > 0) return { ok: false, error: problems.join('; ') };
  const s = (k: string) => {
    const v = pick(d, k).value;
    return isStr(v) ? v : v === undefined || v === null ? '' : JSON.stringify(v);
  };
  const fr = pick(d, 'failure reason');
  return {
    ok: true,
    value: {
      ...(fr.found ? { failureReason: s('failure reason') } : {}),
      memory: s('memory'),
      reason: opts.shape === 'react' ? s('think') : s('reason'),
      subtask: s('subtask'),
      actions,
    },
  };
}
