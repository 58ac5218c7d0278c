// The session's breakpoints as the debugger sets them: line breakpoints per prompt file (verified against the
// session's run), function breakpoints (role names, robot functions, action names) and exception filters, with one
// id sequence for all three. Which of them fire at an event is decided in runtime.ts (EngineRuntime.decide).
import type { Architectures } from '../architecture/registry.js';
import type { TraceEvent } from '../../protocol/trace.js';
import { ArmedBreakpoint, EXCEPTION_FILTERS, exceptionOf, type BreakpointOptions, type ExceptionFilter } from './breakpoints.js';
import { normalizePath, type PromptTextStore } from './fork.js';
import { verifyPromptLines, type PromptSession } from './promptBreakpoints.js';

export interface BreakpointView {
  id: number;
  verified: boolean;
  line?: number;
  message?: string;
}

export interface LineBreakpointSpec extends BreakpointOptions {
  line: number;
}

export interface FunctionBreakpointSpec extends BreakpointOptions {
  name: string;
}

export class BreakpointSet {
  private nextBpId = 1;
  private lineBps = new Map<string, { bp: ArmedBreakpoint; line: number }[]>();
  private fnBps: ArmedBreakpoint[] = [];
  private exceptionBps: ArmedBreakpoint[] = [];

  constructor(
    private readonly o: {
      architectures: Architectures;
      store: PromptTextStore;
      /** The run breakpoints are verified against (absent before launch). */
      session: () => PromptSession | undefined;
      reportOnce: (message: string) => void;
    },
  ) {}

  all(): ArmedBreakpoint[] {
    return [...[...this.lineBps.values()].flat().map((x) => x.bp), ...this.fnBps, ...this.exceptionBps];
  }

  /** The armed line breakpoints of one prompt file, in the order they were set. */
  linesOf(promptPath: string): { bp: ArmedBreakpoint; line: number }[] {
    return this.lineBps.get(normalizePath(promptPath)) ?? [];
  }

  /** The breakpoints that may fire at an event, in the order their hits are reported. */
  candidates(e: TraceEvent): ArmedBreakpoint[] {
    return [...(e.type === 'role_call' ? this.linesOf(e.promptPath).map((x) => x.bp) : []), ...this.fnBps, ...this.exceptionBps];
  }

  /** Line breakpoints of one prompt file (replacing its previous ones), verified against this session's run. */
  async setLine(path: string, specs: readonly LineBreakpointSpec[]): Promise<BreakpointView[]> {
    const norm = normalizePath(path);
    const text = (await this.o.store.current(path))?.text;
    const session = this.o.session();
    const verdicts = session
      ? verifyPromptLines(norm, text, specs.map((s) => s.line), session)
      : specs.map((s) => ({ line: s.line, verified: false, message: 'no run yet: breakpoints are checked when the session launches' }));
    const armed: { bp: ArmedBreakpoint; line: number }[] = [];
    const views: BreakpointView[] = [];
    specs.forEach((spec, k) => {
      const v = verdicts[k]!;
      const id = this.nextBpId++;
      const name = `${path.split(/[\\/]/).pop()}:${spec.line}`;
      const bp = new ArmedBreakpoint(id, 'line', name, (e) => e.type === 'role_call' && normalizePath(e.promptPath) === norm, spec);
      let message = v.message;
      let verified = v.verified;
      if (bp.syntaxError) {
        verified = false;
        message = `${bp.syntaxError}; this breakpoint will not stop`;
        this.o.reportOnce(`breakpoint ${name}: ${message}`);
      }
      if (verified) armed.push({ bp, line: spec.line });
      views.push({ id, verified, line: spec.line, ...(message ? { message } : {}) });
    });
    this.lineBps.set(norm, armed);
    return views;
  }

  setFunction(specs: readonly FunctionBreakpointSpec[]): BreakpointView[] {
    const arch = this.o.session()?.arch;
    const manifest = arch ? this.o.architectures.find(arch) : undefined;
    const roles = manifest?.roles.map((r) => ({ id: r.id, label: r.label })) ?? [];
    const fns = (arch ? this.o.architectures.apiFunctions(arch) : undefined)?.map((f) => f.name) ?? [];
    this.fnBps = [];
    return specs.map((spec) => {
      const id = this.nextBpId++;
      const name = spec.name.trim();
      const role = roles.find((r) => r.id.toLowerCase() === name.toLowerCase() || r.label.toLowerCase() === name.toLowerCase());
      const isFn = fns.includes(name);
      const place = (e: TraceEvent): boolean =>
        (role !== undefined && e.type === 'role_call' && e.role === role.id) ||
        (e.type === 'api_call' && e.fn === name) ||
        (e.type === 'action' && e.actions.some((a) => a.name === name)) ||
        (role === undefined && !isFn && e.type === 'role_call' && e.role === name);
      const bp = new ArmedBreakpoint(id, 'function', `function breakpoint ${name}`, place, spec);
      if (bp.syntaxError) {
        this.o.reportOnce(`function breakpoint ${name}: ${bp.syntaxError}; it will not stop`);
        return { id, verified: false, message: `${bp.syntaxError}; this breakpoint will not stop` };
      }
      this.fnBps.push(bp);
      if (role || isFn) return { id, verified: true };
      // Actions of other architectures' simulators are named at run time; keep it armed, say why it is unverified.
      return { id, verified: false, message: `no role or robot function '${name}' in ${arch ?? 'this run'} (roles: ${roles.map((r) => r.id).join(', ') || '—'}; functions: ${fns.join(', ') || '—'}); it stops if an action of that name runs` };
    });
  }

  setExceptionFilters(filters: readonly string[], conditions: Readonly<Record<string, string>> = {}): BreakpointView[] {
    this.exceptionBps = [];
    return filters.map((f) => {
      const id = this.nextBpId++;
      const known = EXCEPTION_FILTERS.find((x) => x.filter === f);
      if (!known) return { id, verified: false, message: `unknown exception filter '${f}' (known: ${EXCEPTION_FILTERS.map((x) => x.filter).join(', ')})` };
      const bp = new ArmedBreakpoint(id, 'exception', known.label, (e) => exceptionOf(e)?.filter === (f as ExceptionFilter), { condition: conditions[f] });
      if (bp.syntaxError) {
        this.o.reportOnce(`exception filter ${f}: ${bp.syntaxError}; it will not stop`);
        return { id, verified: false, message: bp.syntaxError };
      }
      this.exceptionBps.push(bp);
      return { id, verified: true };
    });
  }
}
