// The reference policies' picture of the episode, rebuilt from each request: the memory notes brought up to date
// with what the last step's action lines say happened and what the robots see, and the jobs the task still needs.
import { goalsOf, HOLDS_ONE, homeOf, OPENABLE, plural, word, type Goal } from './knowledge.js';
import { outcomeOf, readNotes, typeOf, type Notes, type RequestInput } from './reading.js';

export type Job =
  /** Carry `item` to `dest`; with `near`, walk to `near` first and put it down there (on the floor). */
  | { kind: 'transport'; item: string; dest: string; near?: string }
  | { kind: 'act'; verb: 'Slice' | 'Clean' | 'ToggleOn' | 'ToggleOff' | 'Open'; target: string }
  | { kind: 'close'; target: string };

export interface Picture {
  goals: Goal[];
  notes: Notes;
  /** Objects seen in this request's observations and not before. */
  newlySeen: string[];
  /** Jobs still to do, in order; a job whose prerequisite is not done yet is left out. */
  jobs: Job[];
  /** Words for what is still missing (types no robot has seen). */
  missing: string[];
  /** Whether the robots should still look around (something missing, or a task about "all" of something). */
  searching: boolean;
  /** Phrases for the open "find more" subtasks while searching. */
  searchPhrases: string[];
  holding: Record<string, string | null>;
  viewState: (id: string) => string[];
  /** Another receptacle of `rec`'s kind for what `rec` could not take (full), if one has been seen. */
  alternative: (rec: string) => string | undefined;
}

export function jobKey(j: Job): string {
  return j.kind === 'transport' ? `transport ${j.item} to ${j.dest}${j.near ? ` near ${j.near}` : ''}` : j.kind === 'close' ? `close ${j.target}` : `${VERB_WORD[j.verb]} ${j.target}`;
}

export const VERB_WORD: Record<string, string> = { Slice: 'slice', Clean: 'clean', ToggleOn: 'turn on', ToggleOff: 'turn off', Open: 'open' };

const done = (n: Notes, entry: string) => n.done.some((d) => d === entry || d.startsWith(`${entry} `));

/** Brings the notes up to date with the request and works out the jobs. */
export function picture(input: RequestInput): Picture | undefined {
  const goals = goalsOf(input.task);
  if (!goals) return undefined;
  const notes = readNotes(input.memory);
  const views = new Map<string, string[]>();
  for (const a of input.agents) for (const [id, bits] of a.view) views.set(id, bits);
  const viewState = (id: string) => views.get(id) ?? [];

  // What the last step did.
  for (const a of input.agents) {
    const o = outcomeOf(a.previous);
    const at = notes.at[a.name];
    if (o.verb === 'navigate') {
      if (o.ok && o.target) {
        notes.at[a.name] = o.target;
        delete notes.stuck[o.target];
      } else {
        delete notes.at[a.name];
        if (o.target && (o.navFailure === 'blocked' || o.navFailure === 'no_path' || o.navFailure === 'interrupted')) notes.stuck[o.target] = (notes.stuck[o.target] ?? 0) + 1;
      }
    } else if (['move', 'rotate', 'explore', 'look'].includes(o.verb)) delete notes.at[a.name];
    if (!o.ok || !o.target) {
      // Turning something off that is already off (or on that is on) fails: either way it is in the state asked for.
      if ((o.verb === 'on' || o.verb === 'off') && o.target && at === o.target) add(notes.done, `${o.verb === 'on' ? 'ToggleOn' : 'ToggleOff'} ${o.target} (already)`);
      if (o.verb === 'open' && o.target && viewState(o.target).includes('open')) add(notes.open, o.target);
      // Standing at an open (or door-less) receptacle and still unable to put the thing in: it is full.
      if (o.verb === 'put' && o.target && at === o.target && (!OPENABLE.has(typeOf(o.target)) || notes.open.includes(o.target) || viewState(o.target).includes('open'))) add(notes.full, o.target);
      continue;
    }
    switch (o.verb) {
      case 'put':
        add(notes.done, `Put ${o.held}>${o.target}`);
        break;
      case 'open':
        add(notes.open, o.target);
        add(notes.done, `Open ${o.target}`);
        break;
      case 'close':
        notes.open = notes.open.filter((x) => x !== o.target);
        add(notes.done, `Close ${o.target}`);
        break;
      case 'slice':
        add(notes.done, `Slice ${o.target}`);
        break;
      case 'clean':
        add(notes.done, `Clean ${o.target}`);
        break;
      case 'on':
        add(notes.done, `ToggleOn ${o.target}`);
        break;
      case 'off':
        add(notes.done, `ToggleOff ${o.target}`);
        break;
    }
  }
  for (const [id, bits] of views) {
    // A burner (toaster, coffee machine) with something on it takes nothing more: remember it.
    for (const b of bits) {
      const m = /^(?:on|in) ([A-Z][A-Za-z]*_\d+)$/.exec(b);
      if (m && HOLDS_ONE.has(typeOf(m[1]!))) add(notes.full, m[1]!);
    }
    if (bits.includes('closed')) notes.open = notes.open.filter((x) => x !== id);
    if (bits.includes('open') && OPENABLE.has(typeOf(id)) && notes.done.some((d) => d.startsWith(`Put `) && d.endsWith(`>${id}`))) add(notes.open, id);
  }

  // What the robots see now.
  const newlySeen: string[] = [];
  for (const a of input.agents) for (const id of [...a.observation, ...a.view.keys(), ...(a.holding ? [a.holding] : [])]) if (!notes.seen.includes(id)) {
    notes.seen.push(id);
    newlySeen.push(id);
  }
  const explorers = input.agents.filter((a) => outcomeOf(a.previous).verb === 'explore').length;
  if (explorers > 0) {
    notes.explores += explorers;
    notes.quiet = newlySeen.length > 0 ? 0 : notes.quiet + 1;
  }
  const holding = Object.fromEntries(input.agents.map((a) => [a.name, a.holding]));
  const seenOf = (types: readonly string[]) => notes.seen.filter((id) => types.includes(typeOf(id)));
  const placed = (item: string) => notes.done.some((d) => d.startsWith(`Put ${item}>`));
  /** What the views show on or in a receptacle now. */
  const contents = (rec: string) => [...views].filter(([, bits]) => bits.includes(`on ${rec}`) || bits.includes(`in ${rec}`)).map(([id]) => id);

  // Items a clearing task must move: what the views show on the surface (or the floor) that belongs elsewhere.
  for (const g of goals) {
    if (g.kind !== 'clear') continue;
    for (const [id, bits] of views) {
      const onIt = g.from.includes('Floor') ? bits.includes('on the floor') : bits.some((b) => g.from.some((t) => new RegExp(`^on ${t}_\\d+$`).test(b)));
      const belongs = homeOf(typeOf(id));
      const movable = g.dest ? true : belongs.filter((t) => !g.from.includes(t)).length > 0;
      if (onIt && movable && !placed(id) && !Object.values(holding).includes(id)) add(notes.targets, id);
    }
  }

  const jobs: Job[] = [];
  const missing: string[] = [];
  let wantAll = false;
  const destsUsed = new Set<string>();
  /** Receptacles already promised to an item this step (a burner takes one pot). */
  const promised = new Set<string>();
  const movingItems = new Set<string>();
  const chooseDest = (destTypes: readonly string[], item: string): string | undefined => {
    for (const t of destTypes) {
      for (const id of seenOf([t])) {
        if (id === item || notes.full.includes(id)) continue;
        if (HOLDS_ONE.has(t) && (promised.has(id) || contents(id).some((x) => x !== item))) continue;
        return id;
      }
    }
    return undefined;
  };
  const transport = (item: string, destTypes: readonly string[], near?: string) => {
    if (placed(item)) return;
    movingItems.add(item);
    const dest = chooseDest(destTypes, item);
    if (!dest) {
      add(missing, `${destTypes.some((t) => seenOf([t]).length > 0) ? 'another' : 'the'} ${word(destTypes[0]!)}`);
      return;
    }
    if (near) {
      const mark = seenOf([near])[0];
      if (!mark) {
        add(missing, `the ${word(near)}`);
        return;
      }
      jobs.push({ kind: 'transport', item, dest, near: mark });
      return;
    }
    if (HOLDS_ONE.has(typeOf(dest))) promised.add(dest);
    destsUsed.add(dest);
    jobs.push({ kind: 'transport', item, dest });
  };
  for (const g of goals) {
    if (g.kind === 'transport') {
      if (g.all) {
        wantAll = true;
        for (const id of seenOf(g.types)) transport(id, g.dest, g.near);
      } else {
        for (const t of g.types) {
          const item = notes.seen.find((id) => typeOf(id) === t && placed(id)) ?? notes.seen.find((id) => typeOf(id) === t && Object.values(holding).includes(id)) ?? notes.seen.find((id) => typeOf(id) === t);
          if (!item) addTo(missing, `the ${word(t)}`);
          else transport(item, g.dest, g.near);
        }
      }
    } else if (g.kind === 'act') {
      const pending = (id: string) => !done(notes, `${g.verb} ${id}`) && !(g.ifOn && viewState(id).includes(g.verb === 'ToggleOff' ? 'off' : 'on'));
      if (g.all) {
        wantAll = true;
        for (const id of seenOf(g.types)) if (pending(id)) jobs.push({ kind: 'act', verb: g.verb, target: id });
      } else {
        for (const t of g.types) {
          const ids = seenOf([t]);
          if (ids.length === 0) {
            addTo(missing, `the ${word(t)}`);
            continue;
          }
          if (ids.some((id) => done(notes, `${g.verb} ${id}`) || (g.ifOn && viewState(id).includes(g.verb === 'ToggleOff' ? 'off' : 'on')))) continue;
          jobs.push({ kind: 'act', verb: g.verb, target: ids[0]! });
        }
      }
    } else if (g.kind === 'clear') {
      wantAll = true;
      for (const id of notes.targets) transport(id, g.dest ?? homeOf(typeOf(id)).filter((t) => !g.from.includes(t)));
    } else if (g.kind === 'microwave') {
      wantAll = true;
      const oven = seenOf(['Microwave'])[0];
      if (!oven) addTo(missing, 'the microwave');
      const items = seenOf(g.types);
      for (const t of g.types) if (!items.some((id) => typeOf(id) === t)) addTo(missing, `the ${word(t)}`);
      for (const id of items) transport(id, ['Microwave']);
      const allIn = items.length > 0 && items.every(placed) && g.types.every((t) => items.some((id) => typeOf(id) === t));
      if (oven && allIn && !notes.open.includes(oven) && !done(notes, `ToggleOn ${oven}`)) jobs.push({ kind: 'act', verb: 'ToggleOn', target: oven });
    } else {
      const mug = notes.seen.find((id) => typeOf(id) === 'Mug' && placed(id)) ?? seenOf(['Mug'])[0];
      const cm = seenOf(['CoffeeMachine'])[0];
      const bread = seenOf(['Bread'])[0];
      const toaster = seenOf(['Toaster'])[0];
      for (const [v, w] of [[mug, 'mug'], [cm, 'coffee machine'], [bread, 'bread'], [toaster, 'toaster']] as const) if (!v) addTo(missing, `the ${w}`);
      if (mug && cm) {
        if (!placed(mug)) transport(mug, ['CoffeeMachine']);
        else if (!done(notes, `ToggleOn ${cm}`)) jobs.push({ kind: 'act', verb: 'ToggleOn', target: cm });
      }
      if (bread && toaster) {
        // Slicing leaves pieces (BreadSliced_1, ...); one of them goes in the toaster.
        const slice = notes.seen.find((id) => typeOf(id) === 'BreadSliced' && placed(id)) ?? notes.seen.find((id) => typeOf(id) === 'BreadSliced' && Object.values(holding).includes(id)) ?? seenOf(['BreadSliced'])[0];
        if (!done(notes, `Slice ${bread}`) && !slice) jobs.push({ kind: 'act', verb: 'Slice', target: bread });
        else if (!slice) addTo(missing, 'a slice of bread');
        else if (!placed(slice)) transport(slice, ['Toaster']);
        else if (!done(notes, `ToggleOn ${toaster}`)) jobs.push({ kind: 'act', verb: 'ToggleOn', target: toaster });
      }
    }
  }
  // A receptacle that is itself still to be carried somewhere takes things only once it is there.
  const ready = jobs.filter((j) => !(j.kind === 'transport' && movingItems.has(j.dest) && !placed(j.dest)));
  jobs.length = 0;
  jobs.push(...ready);
  // Close what was opened to put things in, once nothing more goes in.
  for (const r of notes.open) {
    // Still needed: something goes in now, or an item the task names (not found yet) will go in later.
    const awaited = missing.length > 0 && goals.some((g) => g.kind === 'transport' && !g.all && g.dest.includes(typeOf(r)));
    const stillNeeded = awaited || jobs.some((j) => j.kind === 'transport' && j.dest === r) || Object.values(holding).some((h) => h && jobs.some((j) => j.kind === 'transport' && j.item === h && j.dest === r));
    if (!stillNeeded && OPENABLE.has(typeOf(r)) && (destsUsed.has(r) || notes.done.some((d) => d.endsWith(`>${r}`)))) jobs.push({ kind: 'close', target: r });
  }
  // Stop looking after four rounds of exploring that found nothing new (or many explorations in all).
  notes.searchDone = notes.searchDone || (notes.explores > 0 && notes.quiet >= 4) || notes.explores >= 16;
  // Something the task names explicitly is searched for until found; "all of X" until searching stops paying.
  const searching = missing.length > 0 || (wantAll && !notes.searchDone);
  const searchPhrases = wantAll
    ? goals
        .map((g) =>
          g.kind === 'clear'
            ? `find anything else on the ${g.from.includes('Floor') ? 'floor' : g.from.some((t) => t === 'DiningTable' || t === 'CoffeeTable') ? 'table' : word(g.from[0]!)}`
            : g.kind === 'coffee_toast'
              ? ''
              : g.kind === 'microwave'
                ? `find any other ${g.types.map(plural).join(' and ')}`
                : g.all
                  ? `find any other ${g.types.map(plural).join(' and ')}`
                  : '',
        )
        .filter(Boolean)
    : [];
  const alternative = (rec: string) => {
    const others = seenOf([typeOf(rec)]).filter((id) => id !== rec && !notes.full.includes(id) && !(HOLDS_ONE.has(typeOf(id)) && contents(id).length > 0));
    return others[0];
  };
  return { goals, notes, newlySeen, jobs, missing, searching, searchPhrases, holding, viewState, alternative };
}

function add(xs: string[], x: string): void {
  if (!xs.includes(x)) xs.push(x);
}

function addTo(xs: string[], x: string): void {
  if (!xs.includes(x)) xs.push(x);
}

/** The action phrase (the Actor's vocabulary) that moves `agent` toward finishing `job`. */
export function nextAction(p: Picture, agent: string, job: Job): { action: string; why: string } {
  const at = p.notes.at[agent];
  const go = (x: string, why: string) => ({ action: `navigate to object ${x}`, why });
  if (job.kind === 'transport') {
    const held = p.holding[agent];
    if (held === job.item) {
      if (job.near) return at === job.near ? { action: `put object on ${job.dest}`, why: `${job.item} goes down next to ${job.near}` } : go(job.near, `to bring ${job.item} next to ${job.near}`);
      const closed = OPENABLE.has(typeOf(job.dest)) && !p.notes.open.includes(job.dest) && !p.viewState(job.dest).includes('open');
      if (closed) return at === job.dest ? { action: `open object ${job.dest}`, why: `${job.dest} must be opened before ${job.item} goes in` } : go(job.dest, `to open ${job.dest}`);
      return at === job.dest ? { action: `put object on ${job.dest}`, why: `${job.item} goes in/on ${job.dest}` } : go(job.dest, `to bring ${job.item} to ${job.dest}`);
    }
    return at === job.item ? { action: `pick up object ${job.item}`, why: `pick up ${job.item}` } : go(job.item, `to pick up ${job.item}`);
  }
  if (job.kind === 'close') return at === job.target ? { action: `close object ${job.target}`, why: `nothing more goes into ${job.target}` } : go(job.target, `to close ${job.target}`);
  const phrase = { Slice: 'slice object', Clean: 'clean object', Open: 'open object', ToggleOn: 'toggle object', ToggleOff: 'toggle object' }[job.verb];
  const suffix = job.verb === 'ToggleOn' ? ' on' : job.verb === 'ToggleOff' ? ' off' : '';
  return at === job.target ? { action: `${phrase} ${job.target}${suffix}`, why: `${VERB_WORD[job.verb]} ${job.target}` } : go(job.target, `to ${VERB_WORD[job.verb]} ${job.target}`);
}

/** A subtask phrase the reference Planner writes, and how the reference Verifier decides it is finished. */
export interface PlannedSubtask {
  text: string;
  /** Why it is finished, or undefined. */
  done(p: Picture): string | undefined;
}

const putOf = (p: Picture, itemOk: (id: string) => boolean, destOk: (id: string) => boolean) =>
  p.notes.done.find((d) => {
    const m = /^Put (\S+)>(\S+)$/.exec(d);
    return m !== null && itemOk(m[1]!) && destOk(m[2]!);
  });
const doneWith = (p: Picture, verb: string, ok: (id: string) => boolean) =>
  p.notes.done.find((d) => {
    const m = new RegExp(`^${verb} (\\S+)`).exec(d);
    return m !== null && ok(m[1]!);
  });
const ofType = (types: readonly string[]) => (id: string) => types.includes(typeOf(id));
const dw = (types: readonly string[]) => word(types[0]!);

/** Every subtask the task can have as the robots know it now (the Planner adds those not done yet). */
export function plannedSubtasks(p: Picture): PlannedSubtask[] {
  const out: PlannedSubtask[] = [];
  const locate = (t: string) => out.push({ text: `locate the ${word(t)}`, done: (q) => (q.notes.seen.some((id) => typeOf(id) === t) ? `a ${word(t)} has been seen` : undefined) });
  const open = (t: string) => out.push({ text: `open the ${word(t)}`, done: (q) => doneWith(q, 'Open', ofType([t])) });
  const close = (t: string) => out.push({ text: `close the ${word(t)}`, done: (q) => doneWith(q, 'Close', ofType([t])) });
  const search = () => {
    for (const s of p.searchPhrases) if (!out.some((o) => o.text === s)) out.push({ text: s, done: (q) => (q.notes.searchDone ? `the robots explored ${q.notes.explores} times and stopped finding new objects` : undefined) });
  };
  const already = (q: Picture, verb: string, id: string) => (q.viewState(id).includes(verb === 'ToggleOff' ? 'off' : 'on') ? `${id} is ${verb === 'ToggleOff' ? 'off' : 'on'}` : undefined);
  for (const g of p.goals) {
    if (g.kind === 'transport') {
      const openable = g.dest.find((t) => OPENABLE.has(t));
      if (openable) open(openable);
      if (g.near) locate(g.near);
      if (g.all) {
        for (const id of p.notes.seen.filter(ofType(g.types))) {
          out.push({ text: g.near ? `move ${id} next to the ${word(g.near)}` : `transport ${id} to the ${dw(g.dest)}`, done: (q) => putOf(q, (x) => x === id, ofType(g.dest)) });
        }
        search();
      } else {
        for (const t of g.types) {
          locate(t);
          out.push({ text: `transport the ${word(t)} to the ${dw(g.dest)}`, done: (q) => putOf(q, ofType([t]), ofType(g.dest)) });
        }
      }
      if (openable && openable !== 'Drawer') close(openable);
    } else if (g.kind === 'act') {
      const verbWord = VERB_WORD[g.verb]!;
      if (g.all) {
        for (const id of p.notes.seen.filter(ofType(g.types))) {
          out.push({ text: `${verbWord} ${id}`, done: (q) => doneWith(q, g.verb, (x) => x === id) ?? (g.ifOn ? already(q, g.verb, id) : undefined) });
        }
        search();
      } else {
        for (const t of g.types) {
          locate(t);
          out.push({
            text: `${verbWord} the ${word(t)}`,
            done: (q) => {
              const d = doneWith(q, g.verb, ofType([t]));
              if (d || !g.ifOn) return d;
              const ids = q.notes.seen.filter(ofType([t]));
              return ids.some((id) => already(q, g.verb, id)) ? `the ${word(t)} is already ${g.verb === 'ToggleOff' ? 'off' : 'on'}` : undefined;
            },
          });
        }
      }
    } else if (g.kind === 'clear') {
      const dests = (id: string) => g.dest ?? homeOf(typeOf(id)).filter((t) => !g.from.includes(t));
      const openable = p.notes.targets.map((id) => dests(id)[0]).find((t) => t !== undefined && OPENABLE.has(t));
      if (openable) open(openable);
      for (const id of p.notes.targets) {
        out.push({ text: g.dest ? `put ${id} on the ${dw(g.dest)}` : `put ${id} where it belongs`, done: (q) => putOf(q, (x) => x === id, ofType(dests(id))) });
      }
      search();
      if (openable === 'Fridge') close(openable);
    } else if (g.kind === 'microwave') {
      locate('Microwave');
      for (const t of g.types) locate(t);
      for (const id of p.notes.seen.filter(ofType(g.types))) out.push({ text: `put ${id} in the microwave`, done: (q) => putOf(q, (x) => x === id, ofType(['Microwave'])) });
      search();
      close('Microwave');
      out.push({ text: 'turn on the microwave', done: (q) => doneWith(q, 'ToggleOn', ofType(['Microwave'])) });
    } else {
      for (const t of ['Mug', 'CoffeeMachine', 'Bread', 'Toaster']) locate(t);
      out.push(
        { text: 'transport the mug to the coffee machine', done: (q) => putOf(q, ofType(['Mug']), ofType(['CoffeeMachine'])) },
        { text: 'turn on the coffee machine', done: (q) => doneWith(q, 'ToggleOn', ofType(['CoffeeMachine'])) },
        { text: 'slice the bread', done: (q) => doneWith(q, 'Slice', ofType(['Bread'])) },
        { text: 'put a slice of bread in the toaster', done: (q) => putOf(q, ofType(['BreadSliced']), ofType(['Toaster'])) },
        { text: 'turn on the toaster', done: (q) => doneWith(q, 'ToggleOn', ofType(['Toaster'])) },
      );
    }
  }
  return out;
}
