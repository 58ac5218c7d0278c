// The mutants `npm run test:mutation` (scripts/mutation.mjs) applies, one at a time: each is a small semantic
// change to a rule the researcher's numbers depend on, with the test files that should notice it and the folder it
// scores. `search` must occur exactly once in `file` (test/unit/tooling/mutants.test.ts checks the list, so it does
// not rot when the code moves). `issue: 26` marks the survivors of the November 2026 audit.

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const MALMM = ['test/unit/architectures/malmm/malmmLoop.test.ts'];
const TRAJGEN = ['test/unit/architectures/trajgen/trajgenLoop.test.ts'];
const TRAJGEN_PARSE = ['test/unit/architectures/trajgen/trajgenParse.test.ts'];
const ROCO = ['test/unit/architectures/roco/rocoLoop.test.ts'];
const LLAMAR = ['test/unit/architectures/llamar/llamarLoop.test.ts'];
const LLAMAR_ANSWERS = ['test/unit/architectures/llamar/answers.test.ts'];
const ACTCTX = ['test/unit/architectures/actctx/actctxLoop.test.ts'];
const HOUSEHOLD_METRICS = ['test/unit/core/metrics/householdMetrics.test.ts'];
const MOTION = ['test/unit/core/metrics/motionMetrics.test.ts'];
const CONDITIONING = ['test/unit/core/metrics/conditioning.test.ts'];
const CLOPPER = ['test/unit/architectures/llamar/view/householdSteps.test.ts', 'test/unit/core/metrics/clopperPearson.test.ts'];
const STATS = ['test/unit/core/sweep/sweepStats.test.ts'];
const SCHEDULER = ['test/unit/core/sweep/sweepScheduler.test.ts'];
const RATE = ['test/unit/core/sweep/rateLimit.test.ts'];
const DEBUG = ['test/unit/core/debug/model.test.ts', 'test/unit/core/debug/rocoRecording.test.ts'];
const EXPR = ['test/unit/core/debug/expr.test.ts'];
const LOCAL_EMBEDDING = ['test/unit/core/llm/localEmbedding/model.test.ts'];

/** @type {{ id: string; folder: string; file: string; search: string; replace: string; tests: string[]; what: string; issue?: number }[]} */
export const MUTANTS = [
  // ---- MALMM
  { id: 'malmm-failed-block-not-counted', folder: 'src/architectures/malmm', file: 'src/architectures/malmm/loop.ts', search: 'consecutiveErrors = run.result.ok ? 0 : consecutiveErrors + 1;', replace: 'consecutiveErrors = run.result.ok ? 0 : consecutiveErrors;', tests: MALMM, what: 'failed code blocks do not count toward the stop after consecutive errors', issue: 26 },
  { id: 'malmm-six-errors', folder: 'src/architectures/malmm', file: 'src/architectures/malmm/manifest.ts', search: "type: 'int',\n      default: 5,", replace: "type: 'int',\n      default: 6,", tests: MALMM, what: 'the stop comes after 6 consecutive errors instead of 5', issue: 26 },
  { id: 'malmm-stop-after-next-turn', folder: 'src/architectures/malmm', file: 'src/architectures/malmm/loop.ts', search: '        if (consecutiveErrors >= maxErrors) {', replace: '        if (consecutiveErrors > maxErrors) {', tests: MALMM, what: 'the fifth failed block does not stop at once (one more model turn first)' },
  { id: 'malmm-turn-cap-plus-one', folder: 'src/architectures/malmm', file: 'src/architectures/malmm/loop.ts', search: 'if (messages >= maxTurns) return capped();', replace: 'if (messages > maxTurns) return capped();', tests: MALMM, what: 'the turn cap lets one more chat message through' },
  { id: 'malmm-no-single-pass', folder: 'src/architectures/malmm', file: 'src/architectures/malmm/loop.ts', search: "if (topology === 'sa_nofeedback') {", replace: 'if (false) {', tests: MALMM, what: 'SA without feedback does not stop after its single pass' },
  { id: 'malmm-unroutable-not-counted', folder: 'src/architectures/malmm', file: 'src/architectures/malmm/loop.ts', search: '      consecutiveErrors++;\n      const fallback', replace: '      const fallback', tests: MALMM, what: 'an unroutable Supervisor answer is not counted as an error' },

  // ---- LM Trajectory Generators
  { id: 'trajgen-unreadable-verdict-success', folder: 'src/architectures/trajgen', file: 'src/architectures/trajgen/loop.ts', search: "const ok = verdict.ok && verdict.value === 'completed';", replace: "const ok = !verdict.ok || verdict.value === 'completed';", tests: TRAJGEN, what: 'an unreadable success-detector verdict counts as success', issue: 26 },
  { id: 'trajgen-four-corrections', folder: 'src/architectures/trajgen', file: 'src/architectures/trajgen/manifest.ts', search: "type: 'int',\n      default: 3,", replace: "type: 'int',\n      default: 4,", tests: TRAJGEN, what: 'default error corrections 3 -> 4', issue: 26 },
  { id: 'trajgen-six-number-pose', folder: 'src/architectures/trajgen', file: 'src/architectures/trajgen/parse.ts', search: '!Array.isArray(p) || p.length !== 5', replace: '!Array.isArray(p) || p.length < 5', tests: TRAJGEN_PARSE, what: 'a pose with more than 5 numbers accepted', issue: 26 },
  { id: 'trajgen-correction-limit-off-by-one', folder: 'src/architectures/trajgen', file: 'src/architectures/trajgen/loop.ts', search: 'if (errorsInRow > maxErrors) {', replace: 'if (errorsInRow >= maxErrors) {', tests: TRAJGEN, what: 'one correction fewer than the limit' },
  { id: 'trajgen-replan-limit-plus-one', folder: 'src/architectures/trajgen', file: 'src/architectures/trajgen/loop.ts', search: 'if (c.replans >= maxReplans) {', replace: 'if (c.replans > maxReplans) {', tests: TRAJGEN, what: 'one re-plan more than maxReplans' },

  // ---- RoCo
  { id: 'roco-execute-before-everyone', folder: 'src/architectures/roco', file: 'src/architectures/roco/loop.ts', search: "const ends = decision === 'EXECUTE' && (everyone || k > 0);", replace: "const ends = decision === 'EXECUTE';", tests: ROCO, what: 'EXECUTE ends the dialog before every robot has spoken', issue: 26 },
  { id: 'roco-replan-execute-waits', folder: 'src/architectures/roco', file: 'src/architectures/roco/loop.ts', search: "const ends = decision === 'EXECUTE' && (everyone || k > 0);", replace: "const ends = decision === 'EXECUTE' && everyone;", tests: ROCO, what: "in a re-plan, the first speaker's EXECUTE no longer ends the dialog early", issue: 26 },
  { id: 'roco-disallowed-verbs', folder: 'src/core/sim/mujoco/apis/roco', file: 'src/core/sim/mujoco/apis/roco/planChecks.ts', search: 'if (disabled) parseError =', replace: 'if (false) parseError =', tests: ['test/unit/core/sim/mujoco/rocoApi.test.ts'], what: "a task's disallowed verbs accepted (PICK/PLACE in sweep_floor)", issue: 26 },
  { id: 'roco-unparsed-limit-plus-one', folder: 'src/architectures/roco', file: 'src/architectures/roco/loop.ts', search: 'if (!executed && unparsedInARow >= maxUnparsed) {', replace: 'if (!executed && unparsedInARow > maxUnparsed) {', tests: [...ROCO, 'test/unit/architectures/roco/rocoVariants.test.ts'], what: 'one unparseable plan more before the format failure' },
  { id: 'roco-unknown-verb-accepted', folder: 'src/architectures/roco', file: 'src/architectures/roco/parse.ts', search: "if (!f.verbs.includes(verb)) return", replace: 'if (false) return', tests: ROCO, what: 'the agents\' plan parser accepts a verb the task does not offer' },

  // ---- LLaMAR
  { id: 'llamar-step-cap-plus-one', folder: 'src/architectures/llamar', file: 'src/architectures/llamar/loop.ts', search: 'for (let t = 1; t <= maxSteps; t++) {', replace: 'for (let t = 1; t <= maxSteps + 1; t++) {', tests: LLAMAR, what: 'step cap T + 1', issue: 26 },
  { id: 'llamar-matcher-threshold', folder: 'src/architectures/llamar', file: 'src/architectures/llamar/actionMatcher.ts', search: 'export const LEXICAL_THRESHOLD = 0.45;', replace: 'export const LEXICAL_THRESHOLD = 0.3;', tests: LLAMAR_ANSWERS, what: 'lexical matcher threshold 0.45 -> 0.3', issue: 26 },
  { id: 'llamar-embedding-threshold', folder: 'src/architectures/llamar', file: 'src/architectures/llamar/actionMatcher.ts', search: 'export const EMBEDDING_THRESHOLD = 0.5;', replace: 'export const EMBEDDING_THRESHOLD = 0.2;', tests: ['test/unit/architectures/llamar/embeddingMatcher.test.ts'], what: 'embedding matcher threshold 0.5 -> 0.2', issue: 28 },
  { id: 'llamar-format-limit-plus-one', folder: 'src/architectures/llamar', file: 'src/architectures/llamar/loop.ts', search: 'if (consecutiveFormat >= maxFormat) throw', replace: 'if (consecutiveFormat > maxFormat) throw', tests: LLAMAR, what: 'one unusable answer more before the format failure' },
  { id: 'llamar-unseen-object-allowed', folder: 'src/architectures/llamar', file: 'src/architectures/llamar/actionMatcher.ts', search: 'if (unseen.length > 0) {', replace: 'if (false) {', tests: LLAMAR_ANSWERS, what: 'an object no robot has seen can be used' },

  // ---- Action Contextualization
  { id: 'actctx-retune-plus-one', folder: 'src/architectures/actctx', file: 'src/architectures/actctx/loop.ts', search: 'while (used < lim.retunes && (!result.success || lim.afterSuccess)) {', replace: 'while (used <= lim.retunes && (!result.success || lim.afterSuccess)) {', tests: ACTCTX, what: 'one retune more before a replan (failure path)', issue: 26 },
  { id: 'actctx-progress-spends-budget', folder: 'src/architectures/actctx', file: 'src/architectures/actctx/loop.ts', search: 'if (!progressed) used++;', replace: 'used++;', tests: ACTCTX, what: 'a retune that moves the failure later also spends the budget', issue: 26 },
  { id: 'actctx-replan-plus-one', folder: 'src/architectures/actctx', file: 'src/architectures/actctx/loop.ts', search: '|| replans >= lim.replans) break;', replace: '|| replans > lim.replans) break;', tests: ACTCTX, what: 'one replan more than maxReplans' },

  // ---- metrics
  { id: 'metrics-coverage-is-transport', folder: 'src/core/metrics', file: 'src/core/metrics/householdMetrics.ts', search: 'state.coverageDone.length / state.coverageTotal.length', replace: 'completed / total', tests: HOUSEHOLD_METRICS, what: 'coverage = completed / total', issue: 26 },
  { id: 'metrics-balance-min-over-sum', folder: 'src/core/metrics', file: 'src/core/metrics/householdMetrics.ts', search: 'Math.min(...counts) / (Math.max(...counts) + BALANCE_EPSILON)', replace: 'Math.min(...counts) / (counts.reduce((a, b) => a + b, 0) + BALANCE_EPSILON)', tests: HOUSEHOLD_METRICS, what: 'balance = min / sum instead of min / max', issue: 26 },
  { id: 'metrics-empty-checker-success', folder: 'src/core/metrics', file: 'src/core/metrics/householdMetrics.ts', search: 'success: total > 0 && completed === total,', replace: 'success: completed === total,', tests: HOUSEHOLD_METRICS, what: 'a checker with no subtasks counts as a success' },
  { id: 'metrics-mt-without-me', folder: 'src/core/metrics', file: 'src/core/metrics/motionMetrics.ts', search: 'mT: mI + mE,', replace: 'mT: mI,', tests: MOTION, what: 'M_T leaves M_E out' },
  { id: 'metrics-me-ignores-dbar', folder: 'src/core/metrics', file: 'src/core/metrics/motionMetrics.ts', search: 'const mE = minClearance / (dBarM > 0 ? dBarM : CLEARANCE_RANGE_M);', replace: 'const mE = minClearance / CLEARANCE_RANGE_M;', tests: MOTION, what: 'M_E divides by the range, not the measured d_bar' },
  { id: 'metrics-mi-max', folder: 'src/core/metrics', file: 'src/core/metrics/motionMetrics.ts', search: 'mI = Math.min(mI, s.dexterity);', replace: 'mI = Math.max(mI, s.dexterity);', tests: MOTION, what: 'M_I is the best dexterity of the motion, not the worst' },
  { id: 'metrics-jerk-stencil', folder: 'src/core/metrics', file: 'src/core/metrics/motionMetrics.ts', search: '(d[k]! - 3 * c[k]! + 3 * b[k]! - a[k]!)', replace: '(d[k]! - 2 * c[k]! + 3 * b[k]! - a[k]!)', tests: MOTION, what: 'the jerk finite difference has a wrong coefficient' },
  { id: 'metrics-plan-quality-mean', folder: 'src/core/metrics', file: 'src/core/metrics/motionMetrics.ts', search: 'reduce((sum, a) => sum + a.mT, 0) / actions.length', replace: 'reduce((sum, a) => sum + a.mT, 0) / (actions.length + 1)', tests: MOTION, what: 'plan quality Q is not the mean of M_T' },
  { id: 'metrics-inverse-condition-second', folder: 'src/core/metrics', file: 'src/core/metrics/conditioning.ts', search: 'return s[s.length - 1]! / max;', replace: 'return s[1]! / max;', tests: CONDITIONING, what: 'the inverse condition number takes the second singular value, not the smallest' },
  { id: 'metrics-clopper-one-sided', folder: 'src/core/metrics', file: 'src/core/metrics/clopperPearson.ts', search: "bisect((p) => 1 - binomialCdf(k - 1, n, p), alpha / 2, true)", replace: "bisect((p) => 1 - binomialCdf(k - 1, n, p), alpha, true)", tests: CLOPPER, what: 'the Clopper-Pearson lower bound at alpha instead of alpha / 2' },
  { id: 'metrics-mean-interval-sd-n', folder: 'src/core/metrics', file: 'src/core/metrics/clopperPearson.ts', search: '(a, b) => a + (b - mean) ** 2, 0) / (n - 1))', replace: '(a, b) => a + (b - mean) ** 2, 0) / n)', tests: CLOPPER, what: 'the mean interval uses the population sd' },

  // ---- sweep
  { id: 'sweep-wilson-z', folder: 'src/core/sweep', file: 'src/core/sweep/stats.ts', search: 'const half = (Z95 * Math.sqrt(', replace: 'const half = (Math.sqrt(', tests: STATS, what: 'the Wilson interval without the z factor' },
  { id: 'sweep-mcnemar-one-sided', folder: 'src/core/sweep', file: 'src/core/sweep/stats.ts', search: 'p: Math.min(1, 2 * tail)', replace: 'p: Math.min(1, tail)', tests: STATS, what: "McNemar's p one-sided" },
  { id: 'sweep-fisher-no-ties', folder: 'src/core/sweep', file: 'src/core/sweep/stats.ts', search: 'if (logP(x) <= observed + 1e-7) p +=', replace: 'if (logP(x) < observed) p +=', tests: STATS, what: "Fisher's p leaves out the tables as likely as the observed one" },
  { id: 'sweep-spread-population-sd', folder: 'src/core/sweep', file: 'src/core/sweep/stats.ts', search: '(a, x) => a + (x - m) ** 2, 0) / (n - 1))', replace: '(a, x) => a + (x - m) ** 2, 0) / n)', tests: STATS, what: 'the spread uses the population sd' },
  { id: 'sweep-discordant-any-baseline-success', folder: 'src/core/sweep', file: 'src/core/sweep/matrix.ts', search: 'if (b.success && !r.success) onlyBaseline++;', replace: 'if (b.success) onlyBaseline++;', tests: STATS, what: 'a seed both columns solved counts as discordant' },
  { id: 'sweep-fisher-instead-of-paired', folder: 'src/core/sweep', file: 'src/core/sweep/matrix.ts', search: 'const p = pairs > 0 ? mc.p : fisherP;', replace: 'const p = fisherP;', tests: STATS, what: 'the unpaired test decides even when seeds pair' },
  { id: 'sandbox-start-not-awaited', folder: 'src/core/engine', file: 'src/core/engine/startingSandbox.ts', search: '    async run(request: RunCodeRequest): Promise<RunCodeResult> {\n      await untilAborted(ready, runSignal);', replace: '    async run(request: RunCodeRequest): Promise<RunCodeResult> {', tests: MALMM, what: 'the first code block runs before the sandbox has started and its namespace is fresh' },
  { id: 'sandbox-start-blocks-loop', folder: 'src/core/engine', file: 'src/core/engine/episode.ts', search: '  const tracks = await recordScene(run, reset);\n', replace: '  const tracks = await recordScene(run, reset);\n  await sandbox.warmUp().catch(() => undefined);\n', tests: MALMM, what: 'the loop waits for the sandbox before its first model call' },
  { id: 'sweep-resume-reruns', folder: 'src/core/sweep', file: 'src/core/sweep/scheduler.ts', search: 'const queue: SweepEpisode[] = mine.filter((e) => !finished.has(e.key));', replace: 'const queue: SweepEpisode[] = [...mine];', tests: SCHEDULER, what: 'resume runs finished episodes again' },
  { id: 'sweep-resume-forgets-spending', folder: 'src/core/sweep', file: 'src/core/sweep/scheduler.ts', search: 'let spentTokens = existing.reduce((a, r) => a + r.promptTokens + r.completionTokens, 0);', replace: 'let spentTokens = 0;', tests: SCHEDULER, what: 'a resumed sweep forgets the tokens already spent against the budget' },
  { id: 'sweep-worker-exit-not-retried', folder: 'src/core/sweep', file: 'src/core/sweep/scheduler.ts', search: 'if (++workerExits < WORKER_EXIT_ATTEMPTS) continue;', replace: 'if (++workerExits < 1) continue;', tests: SCHEDULER, what: 'an episode whose worker process died is recorded as failed instead of running again' },
  { id: 'sweep-refused-record-counts', folder: 'src/core/sweep', file: 'src/core/sweep/planFile.ts', search: '!ranOtherPrompts(r, ep) && refusalOf(r) === undefined;', replace: '!ranOtherPrompts(r, ep);', tests: SCHEDULER, what: 'a refused episode counts as finished on resume' },
  { id: 'sweep-shard-all-first', folder: 'src/core/sweep', file: 'src/core/sweep/spec.ts', search: 'i % shard.count === shard.index', replace: 'i % shard.count === 0', tests: SCHEDULER, what: 'every shard runs shard 0\'s episodes' },
  { id: 'sweep-rate-limit-plus-one', folder: 'src/core/sweep', file: 'src/core/sweep/rateLimit.ts', search: 'if (this.#events.length < rpm && tokensFit) {', replace: 'if (this.#events.length <= rpm && tokensFit) {', tests: RATE, what: 'one request per minute more than the limit' },

  // ---- debugger
  { id: 'debug-step-back-two-turns', folder: 'src/core/debug', file: 'src/core/debug/runtime.ts', search: "    this.walkBack((e) => e.type === 'role_call');", replace: "    let skip = 1;\n    this.walkBack((e) => e.type === 'role_call' && skip-- <= 0);", tests: DEBUG, what: 'Step Back goes two role turns back', issue: 26 },
  { id: 'debug-step-over-to-response', folder: 'src/core/debug', file: 'src/core/debug/runtime.ts', search: "    this.advance((e) => e.type === 'role_call');", replace: "    this.advance((e) => e.type === 'model_response');", tests: DEBUG, what: 'Step Over stops at the model response, not the next role turn' },
  { id: 'debug-step-out-round', folder: 'src/core/debug', file: 'src/core/debug/runtime.ts', search: "(x) => x.type === 'episode_end' || (x.round ?? 0) > e.round!", replace: "(x) => x.type === 'episode_end' || (x.round ?? 0) >= e.round!", tests: DEBUG, what: 'Step Out of a turn stops inside the same round' },
  { id: 'debug-hit-count-future', folder: 'src/core/debug', file: 'src/core/debug/breakpoints.ts', search: 'if (v && j <= i) n++;', replace: 'if (v) n++;', tests: DEBUG, what: 'hit counts include holds after the position (walking back changes them)' },
  { id: 'debug-and-is-or', folder: 'src/core/debug', file: 'src/core/debug/expr.ts', search: "if (e.op === '&&') return truthy(evaluateExpr(e.left, scope)) && truthy(", replace: "if (e.op === '&&') return truthy(evaluateExpr(e.left, scope)) || truthy(", tests: EXPR, what: 'a condition with && is true when either side is' },
  { id: 'debug-mid-task-check-stops', folder: 'src/core/debug', file: 'src/core/debug/breakpoints.ts', search: "return e.phase === 'mid' ? undefined :", replace: 'return false ? undefined :', tests: DEBUG, what: 'a mid-episode task check that fails stops as a task failure' },

  // ---- outside the four folders: the CLI and the sandbox survivors
  { id: 'cli-judge-role-headers', folder: 'src/cli', file: 'src/cli/judge.ts', search: 'apiKey: spec.apiKey, clock: nodeClock, model: spec.model });', replace: 'apiKey: spec.apiKey, clock: nodeClock, model: spec.model, sendRequestMeta: true });', tests: ['test/unit/cli/judgeHeaders.test.ts'], what: '`waypoint judge` sends x-waypoint-* role headers to a real model', issue: 26 },
  { id: 'sandbox-network-stubs-removed', folder: 'src/core/sandbox', file: 'src/core/sandbox/harden.ts', search: "  deny(net, 'net', ['connect', 'createConnection', 'createServer']);\n  deny(net.Socket.prototype, 'net.Socket', ['connect']);\n  deny(net.Server.prototype, 'net.Server', ['listen']);\n  deny(tls, 'tls', ['connect', 'createServer']);\n  for (const [mod, label] of [\n    [http, 'http'],\n    [https, 'https'],\n  ] as const) {\n    deny(mod, label, ['request', 'get', 'createServer']);\n    deny(mod.Agent.prototype, `${label}.Agent`, ['createConnection']);\n  }\n", replace: '', tests: ['test/unit/core/sandbox/harden.test.ts', 'test/unit/core/sandbox/escapes.test.ts'], what: 'the Node network stubs removed (net, tls, http, https)', issue: 26 },
  // ---- issues 25 and 28: the embedded setup in one spec, and the vision switch's honesty
  { id: 'sweep-key-ignores-embedded-spec', folder: 'src/cli', file: 'src/cli/sweep.ts', search: "...(isEmbeddedSpec(sim) && sim !== 'embedded' ? { embeddedSpec: sim } : {})", replace: '', tests: ['test/unit/cli/sweepCli.test.ts'], what: 'a sweep on embedded:grasp=weld shares episode keys with the default tabletop', issue: 25 },
  { id: 'embedded-spec-any-value', folder: 'src/core/sim', file: 'src/core/sim/connect.ts', search: '|| !allowed.includes(v)) return', replace: ') return', tests: ['test/unit/core/sim/connectSpec.test.ts', 'test/unit/cli/sweepCli.test.ts'], what: 'an embedded setting takes any value', issue: 25 },
  { id: 'vision-tally-ignores-images', folder: 'src/cli', file: 'src/cli/transcript.ts', search: "else if (e.type === 'role_call') t.images += imagePartCount(e.messages);", replace: "else if (e.type === 'role_call') t.images += 0 * imagePartCount(e.messages);", tests: ['test/unit/cli/runVision.test.ts'], what: 'a vision run with frames is told no request carried an image', issue: 28 },
  { id: 'summary-images-not-counted', folder: 'src/core/trace', file: 'src/core/trace/projections/runSummary.ts', search: 'if (images > 0) { m.requestsWithImages++; m.imagesSent += images; }', replace: 'if (images > 0) { m.requestsWithImages++; }', tests: ['test/unit/core/trace/projections/runSummary.test.ts'], what: "the viewer's vision chip counts requests, not images", issue: 28 },
  // ---- issue 28: the local embedding model (sentence-transformers' pooling, normalisation and tokenizer rules)
  { id: 'local-embedding-pool-skips-cls', folder: 'src/core/llm/localEmbedding', file: 'src/core/llm/localEmbedding/model.ts', search: '        for (let i = 0; i < n; i++) s += hidden[row(i) + h]! * weight(i);', replace: '        for (let i = 1; i < n; i++) s += hidden[row(i) + h]! * weight(i);', tests: LOCAL_EMBEDDING, what: 'mean pooling leaves out [CLS] (sentence-transformers averages every token)' },
  { id: 'local-embedding-no-normalize', folder: 'src/core/llm/localEmbedding', file: 'src/core/llm/localEmbedding/model.ts', search: 'return normalize ? unit(v) : v;', replace: 'return v;', tests: LOCAL_EMBEDDING, what: 'the Normalize module is ignored' },
  { id: 'local-embedding-accents-kept', folder: 'src/core/llm/localEmbedding', file: 'src/core/llm/localEmbedding/tokenizer.ts', search: "const strip = typeof n.strip_accents === 'boolean' ? n.strip_accents : lowercase;", replace: "const strip = typeof n.strip_accents === 'boolean' ? n.strip_accents : false;", tests: LOCAL_EMBEDDING, what: 'strip_accents null no longer follows lowercase (accents kept)' },
  // ---- issue 24: the paper is the default (what each role sees, the protocols, independent repeats)
  { id: 'actctx-relations-by-default', folder: 'src/architectures/actctx', file: 'src/architectures/actctx/context.ts', search: 'return ablations?.[SPATIAL_RELATIONS_ABLATION] === true;', replace: 'return ablations?.[SPATIAL_RELATIONS_ABLATION] !== false;', tests: ['test/unit/architectures/actctx/sceneDescription.test.ts'], what: "the planner's scene description states spatial relations App. E's has not", issue: 24 },
  { id: 'actctx-ivb-stops-at-success', folder: 'src/architectures/actctx', file: 'src/architectures/actctx/loop.ts', search: 'if ((result.success && !lim.fixedTrials) || replans >= lim.replans) break;', replace: 'if (result.success || replans >= lim.replans) break;', tests: ['test/unit/architectures/actctx/actctxLoop.test.ts'], what: "IV-B's fixed trials stop at the first passing plan", issue: 24 },
  { id: 'actctx-ivb-free-progress', folder: 'src/architectures/actctx', file: 'src/architectures/actctx/loop.ts', search: 'const progressed = !lim.fixedTrials && failing', replace: 'const progressed = failing', tests: ['test/unit/architectures/actctx/actctxLoop.test.ts'], what: 'under IV-B a retune that moves the failure later is not counted', issue: 24 },
  { id: 'cache-key-ignores-repeat', folder: 'src/core/llm', file: 'src/core/llm/cache.ts', search: 'repeatIndex: request.repeatIndex ?? 0,', replace: '', tests: ['test/unit/core/llm/cache.test.ts'], what: 'repeats of an episode get the first repeat\'s cached answers (IV-D runs not independent)', issue: 24 },
  { id: 'roco-others-grippers-by-default', folder: 'src/architectures/roco', file: 'src/architectures/roco/render.ts', search: "othersGrippers: ablations?.['observation.others_grippers'] === true,", replace: 'othersGrippers: true,', tests: ['test/unit/architectures/roco/rocoPaperObservation.test.ts'], what: "sort_cubes shows every robot's gripper to each robot", issue: 24 },
  { id: 'llamar-act-explore-default', folder: 'src/architectures/llamar', file: 'src/architectures/llamar/loop.ts', search: "topology === 'actor_only' ? ctx.ablations['act.explore'] === true", replace: "topology === 'actor_only' ? true", tests: ['test/unit/architectures/llamar/topologies.test.ts'], what: 'the Act baseline explores by default (Table 4 has no Explore for it)', issue: 24 },
];

/** Problems with the list itself: a search text that is not in its file exactly once, a missing test file. */
export function listProblems(mutants, root) {
  const out = [];
  const ids = new Set();
  for (const m of mutants) {
    if (ids.has(m.id)) out.push(`${m.id}: the id is used twice`);
    ids.add(m.id);
    let text;
    try {
      text = readFileSync(join(root, m.file), 'utf8');
    } catch {
      out.push(`${m.id}: ${m.file} does not exist`);
      continue;
    }
    const n = text.split(m.search).length - 1;
    if (n !== 1) out.push(`${m.id}: the search text occurs ${n} times in ${m.file} (must be exactly once)`);
    if (m.search === m.replace) out.push(`${m.id}: the replacement is the search text`);
    if (!m.file.startsWith(m.folder + '/')) out.push(`${m.id}: ${m.file} is not under its folder ${m.folder}`);
    if (m.tests.length === 0) out.push(`${m.id}: no test files`);
    for (const t of m.tests) if (!existsSync(join(root, t))) out.push(`${m.id}: test file ${t} does not exist`);
  }
  return out;
}
