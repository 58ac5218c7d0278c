// The reference model's success detector (scripted, NOT an LLM): it reads only the object tracks in its prompt
// (the authors' format) and the user command, states what should have changed, and judges from the numbers:
// a knocked-over object's height drops, a pushed object slides without lifting, a shaken one moves up and down,
// a wiping tool sweeps over the plate, a drawing tool goes round a figure near the table (for a figure drawn with
// the closed gripper, the gripper's own track, which the loop gives when no object is tracked). It never sees the
// simulator's own success check. Both profiles judge alike (the flawed profile's mistakes are in the main policy).
import type { ChatMessage } from '../../../protocol/trace.js';
import type { PolicyContext } from '../../../core/llm/reference/policy.js';

export interface TrackRead {
  query: string;
  pos: [number, number, number][];
  yaw: number[];
}

export function readTracks(text: string): TrackRead[] {
  const out: TrackRead[] = [];
  const re = /^(.+?) trajectory positions and orientations:\nPositions:\n\[(.*)\]\nOrientations:\n\[(.*)\]/gm;
  for (const m of text.matchAll(re)) {
    const pos = [...m[2]!.matchAll(/\[([^\]]+)\]/g)].map((p) => p[1]!.trim().split(/\s+/).map(Number) as [number, number, number]);
    const yaw = m[3]!.trim() === '' ? [] : m[3]!.trim().split(/\s+/).map(Number);
    out.push({ query: m[1]!.trim(), pos, yaw });
  }
  return out;
}

const span = (v: number[]) => Math.max(...v) - Math.min(...v);
const moved = (t: TrackRead) => {
  const a = t.pos[0]!;
  const b = t.pos[t.pos.length - 1]!;
  return Math.hypot(b[0] - a[0], b[1] - a[1], b[2] - a[2]);
};

/** Reversals of the motion along z between extremes at least `amp` apart (a zig-zag count). */
export function strokes(z: number[], amp: number): number {
  let dir = 0;
  let mn = z[0] ?? 0;
  let mx = mn;
  let ext = mn;
  let n = 0;
  for (const v of z) {
    if (dir === 0) {
      mn = Math.min(mn, v);
      mx = Math.max(mx, v);
      if (v - mn >= amp) [dir, ext] = [1, v];
      else if (mx - v >= amp) [dir, ext] = [-1, v];
    } else if (dir > 0) {
      if (v > ext) ext = v;
      else if (ext - v >= amp) [n, dir, ext] = [n + 1, -1, v];
    } else if (v < ext) ext = v;
    else if (v - ext >= amp) [n, dir, ext] = [n + 1, 1, v];
  }
  return n;
}

/**
 * A figure drawn with the closed gripper, from the gripper's track: the samples near its lowest height (which must
 * be near the table, the height the command gives) should go round the circle the command names (radius from its
 * width, at its centre), or, for another figure, spread over several centimetres.
 */
function judgeGripperFigure(t: string, g: TrackRead): { expect: string; observed: string; ok: boolean } {
  const centre = /centre at \[\s*(-?[\d.]+)\s*,\s*(-?[\d.]+)\s*,\s*(-?[\d.]+)\s*\]/.exec(t);
  const widthCm = /(\d+(?:\.\d+)?)\s*cm wide/.exec(t);
  const zs = g.pos.map((p) => p[2]);
  const low = Math.min(...zs);
  // The command's centre height is the table; without one, the lowest point is taken as drawing height.
  const table = centre ? Number(centre[3]) : low;
  const down = low - table < 0.03;
  const drawn = g.pos.filter((p) => p[2] < low + 0.01);
  if (/\bcircle\b/.test(t) && centre && widthCm) {
    const [cx, cy] = [Number(centre[1]), Number(centre[2])];
    const r = Number(widthCm[1]) / 200;
    const on = drawn.filter((p) => Math.abs(Math.hypot(p[0] - cx, p[1] - cy) - r) < 0.015);
    // Which of twelve 30-degree sectors of the circle the track passes through.
    const sectors = new Set(on.map((p) => Math.floor(((Math.atan2(p[1] - cy, p[0] - cx) + 2 * Math.PI) % (2 * Math.PI)) / (Math.PI / 6))));
    return {
      expect: `The gripper should come down to the table (height ${table.toFixed(3)}) and go once round a circle of radius ${r.toFixed(3)} m centred at [${cx.toFixed(3)}, ${cy.toFixed(3)}].`,
      observed: `Its lowest height was ${low.toFixed(3)}; at that height ${on.length} of ${drawn.length} samples lie on the circle, in ${sectors.size} of 12 sectors round it.`,
      ok: down && sectors.size >= 11 && on.length >= 0.8 * drawn.length,
    };
  }
  const cover = drawn.length > 1 ? Math.min(span(drawn.map((p) => p[0])), span(drawn.map((p) => p[1]))) : 0;
  return {
    expect: 'The gripper should come down to the table and trace the figure there, several centimetres across.',
    observed: `Its lowest height was ${low.toFixed(3)}; at that height it spans ${cover.toFixed(3)} m in the shorter direction.`,
    ok: down && cover > 0.06,
  };
}

function judge(task: string, tracks: TrackRead[]): { expect: string; observed: string; ok: boolean } {
  const find = (word: string) => tracks.find((t) => t.query.toLowerCase().includes(word));
  const t = task.toLowerCase();
  // A figure drawn with the closed gripper moves no object: the loop gives the gripper's own track instead.
  const gripper = /\bdraw\b/.test(t) && /with the gripper closed/.test(t) ? find('gripper') : undefined;
  if (gripper && gripper.pos.length > 0) return judgeGripperFigure(t, gripper);
  if (tracks.length === 0 || tracks.every((x) => x.pos.length === 0)) return { expect: 'The objects should have moved as the command says.', observed: 'No object track was given.', ok: false };
  const knock = /knock over the (\w+ \w+)/.exec(t);
  if (knock) {
    // "the left bottle": of the tracks of that noun, the one that started furthest to that side (x is left-right).
    const [side, noun] = knock[1]!.split(' ') as [string, string];
    const sign = side === 'left' ? -1 : side === 'right' ? 1 : 0;
    const same = tracks.filter((x) => x.query.toLowerCase().includes(noun) && x.pos.length > 0);
    const sided = sign !== 0 && same.length > 0 ? same.reduce((a, b) => (sign * (b.pos[0]![0] - a.pos[0]![0]) > 0 ? b : a)) : undefined;
    const o = find(knock[1]!) ?? sided ?? same[0] ?? tracks[0]!;
    const z = o.pos.map((p) => p[2]);
    const drop = z[0]! - z[z.length - 1]!;
    return { expect: `The ${o.query} should fall over: its centre drops towards the table and it ends up lying down.`, observed: `Its height went from ${z[0]!.toFixed(3)} to ${z[z.length - 1]!.toFixed(3)} (a drop of ${drop.toFixed(3)} m).`, ok: drop > 0.01 };
  }
  if (/\bpush\b/.test(t)) {
    // "towards the right" / "to the left": x is the left-right axis.
    const sign = /\bleft\b/.test(t) ? -1 : 1;
    const side = sign > 0 ? 'right' : 'left';
    const o = find('can') ?? tracks[0]!;
    const a = o.pos[0]!;
    const b = o.pos[o.pos.length - 1]!;
    const along = sign * (b[0] - a[0]);
    const lifted = Math.max(...o.pos.map((p) => p[2])) - a[2];
    const ok = along > 0.05 && Math.abs(b[1] - a[1]) < along && lifted < 0.015 && Math.abs(b[2] - a[2]) < 0.01;
    return {
      expect: `The can should slide to the ${side} along the table (x ${sign > 0 ? 'increases' : 'decreases'}, z stays the same).`,
      observed: `The can moved ${along.toFixed(3)} m to the ${side} and ${Math.abs(b[1] - a[1]).toFixed(3)} m in y, and rose at most ${lifted.toFixed(3)} m.`,
      ok,
    };
  }
  if (/\bshake\b/.test(t)) {
    const o = find('bottle') ?? tracks[0]!;
    const z = o.pos.map((p) => p[2]);
    const n = strokes(z, 0.03);
    const back = Math.abs(z[z.length - 1]! - z[0]!);
    return { expect: 'The bottle should go up and down several times by a few centimetres, then stand where it started.', observed: `It reversed direction ${n} times between heights at least 3 cm apart and ended ${back.toFixed(3)} m from its starting height.`, ok: n >= 3 && back < 0.02 };
  }
  if (/\bwipe\b/.test(t)) {
    const tool = find('sponge') ?? tracks[0]!;
    const plate = find('plate');
    const c = plate ? plate.pos[0]! : tool.pos[0]!;
    const over = tool.pos.filter((p) => Math.hypot(p[0] - c[0], p[1] - c[1]) < 0.1 && p[2] < c[2] + 0.06);
    const xs = over.map((p) => p[0]);
    const ys = over.map((p) => p[1]);
    const cover = over.length > 1 ? Math.min(span(xs), span(ys)) : 0;
    return { expect: 'The sponge should move back and forth across the plate, low on its surface, covering most of it.', observed: `${over.length} sponge samples lie low over the plate, spanning ${cover.toFixed(3)} m in the shorter direction.`, ok: cover > 0.1 };
  }
  if (/\bdraw\b/.test(t)) {
    const tool = find('marker') ?? find('pen') ?? tracks[0]!;
    const z0 = tool.pos[0]![2];
    const lift = tool.pos.findIndex((p) => p[2] > z0 + 0.03);
    const after = lift < 0 ? [] : tool.pos.slice(lift);
    const low = after.length > 0 ? Math.min(...after.map((p) => p[2])) : z0;
    const high = after.length > 0 ? Math.max(...after.map((p) => p[2])) : z0;
    // A marker that fell over lies far lower than where it was drawn from; one that draws is lowered after the lift.
    const fell = low < z0 - 0.05;
    const near = after.filter((p) => p[2] < low + 0.01 && high - p[2] > 0.02);
    const cover = near.length > 1 ? Math.min(span(near.map((p) => p[0])), span(near.map((p) => p[1]))) : 0;
    return {
      expect: 'The marker should be picked up, then go round the figure, about 10 cm across, standing with its tip on the table.',
      observed: lift < 0 ? 'The marker was never lifted.' : fell ? 'The marker fell over after it was lifted.' : `With its tip down the marker spans ${cover.toFixed(3)} m in the shorter direction.`,
      ok: lift >= 0 && !fell && cover > 0.06,
    };
  }
  if (/\balign\b/.test(t)) {
    // A lying bottle turned in place. Its printed orientation is the yaw of a tipped frame, which jumps as the
    // bottle turns, so the judge looks at how far the orientation swept, not where it ended.
    const o = find('bottle') ?? tracks[0]!;
    const swept = o.yaw.length > 0 ? span(o.yaw) : 0;
    return {
      expect: 'The bottle should be turned where it lies until its long axis points away from the robot; it should not be carried off.',
      observed: `Its orientation swept ${swept.toFixed(3)} rad and its centre moved ${moved(o).toFixed(3)} m.`,
      ok: swept > 0.5 && moved(o) < 0.08,
    };
  }
  const most = tracks.reduce((a, b) => (moved(b) > moved(a) ? b : a));
  return { expect: 'The object named in the command should have moved as it says.', observed: `The ${most.query} moved ${moved(most).toFixed(3)} m overall.`, ok: moved(most) > 0.02 };
}

export function trajgenDetector(messages: ChatMessage[], _ctx: PolicyContext): string {
  const system = messages.find((m) => m.role === 'system')?.content ?? '';
  const task = /The user command is "([\s\S]*?)"\./.exec(system)?.[1] ?? '';
  const data = messages.filter((m) => m.role === 'user').map((m) => m.content).join('\n');
  const j = judge(task, readTracks(data));
  return `1. ${j.expect}\n2. ${j.observed} ${j.ok ? 'So the task was completed successfully.' : 'So the task was not completed successfully.'}\n\`\`\`python\n${j.ok ? 'task_completed()' : 'task_failed()'}\n\`\`\``;
}
