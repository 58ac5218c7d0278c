// The success detector's input in the authors' format (digest 4.4): for every detected object, its positions and
// yaw over the attempt, subsampled, three decimals, each yaw taken among its four quarter-turn equivalents nearest
// the previous one (a box's yaw is only known up to a quarter turn).
import type { ObjectTrack } from '../../core/sim/simulator.js';

export interface DetectorTrack {
  /** The query text the model detected the object with (what the authors print). */
  query: string;
  object: string;
  tSecs: number[];
  pos: [number, number, number][];
  yaw: number[];
}

function yawOf(q: readonly number[]): number {
  const [w, x, y, z] = q as [number, number, number, number];
  return Math.atan2(2 * (w * z + x * y), 1 - 2 * (y * y + z * z));
}

/** Each yaw moved by a multiple of pi/2 to lie nearest the one before it. */
export function unwrapQuarterTurns(yaws: readonly number[]): number[] {
  const out: number[] = [];
  for (const y of yaws) {
    const prev = out[out.length - 1];
    if (prev === undefined) {
      out.push(y);
      continue;
    }
    const k = Math.round((prev - y) / (Math.PI / 2));
    out.push(y + (k * Math.PI) / 2);
  }
  return out;
}

/** Every `every`-th sample, the last one always kept. */
export function subsample(track: ObjectTrack, every: number, query: string): DetectorTrack {
  const idx: number[] = [];
  for (let i = 0; i < track.tSecs.length; i += every) idx.push(i);
  const last = track.tSecs.length - 1;
  if (last >= 0 && idx[idx.length - 1] !== last) idx.push(last);
  const r3 = (v: number) => Math.round(v * 1000) / 1000;
  return {
    query,
    object: track.name,
    tSecs: idx.map((i) => r3(track.tSecs[i]!)),
    pos: idx.map((i) => track.pos[i]!.map(r3) as [number, number, number]),
    yaw: unwrapQuarterTurns(idx.map((i) => yawOf(track.quat[i]!))).map(r3),
  };
}

const num = (v: number) => (Object.is(v, -0) ? 0 : v).toFixed(3);

export function formatDetectorTracks(tracks: readonly DetectorTrack[]): string {
  if (tracks.length === 0) return '(no object was detected during this attempt, so none was tracked)';
  return tracks
    .map((t) =>
      [
        `${t.query} trajectory positions and orientations:`,
        'Positions:',
        `[${t.pos.map((p) => `[${p.map(num).join(' ')}]`).join(' ')}]`,
        'Orientations:',
        `[${t.yaw.map(num).join(' ')}]`,
      ].join('\n'),
    )
    .join('\n\n');
}

/** The scene object a detect_object label belongs to ("red cup rim" -> "red cup"): the longest name it starts with. */
export function objectOfLabel(label: string, objects: readonly string[]): string | undefined {
  const l = label.toLowerCase();
  return [...objects].sort((a, b) => b.length - a.length).find((o) => l === o.toLowerCase() || l.startsWith(`${o.toLowerCase()} `));
}
