// detect_object's print-out read back (the format of formatDetection in the simulator's objectLookup.ts): one
// block per matching object or part, starting "Position of <label>: [x, y, z]".

export interface Detected {
  label: string;
  pos: [number, number, number];
  /** Longer horizontal side. */
  width: number;
  /** Shorter horizontal side. */
  length: number;
  height: number;
  /** Yaw of the longer side, and of the shorter side (a quarter turn apart). */
  yawWidth: number;
  yawLength: number;
}

/** Every detection in a text (a tool output or a whole conversation), in order; later blocks of a label win in find. */
export function parseDetections(text: string): Detected[] {
  const out: Detected[] = [];
  const re = /Position of ([^:\n]+): \[([^\]]+)\]\s*\nDimensions:\s*\nWidth: (-?[\d.]+)\s*\nLength: (-?[\d.]+)\s*\nHeight: (-?[\d.]+)\s*\nOrientation along shorter side \(length\): (-?[\d.]+)\s*\nOrientation along longer side \(width\): (-?[\d.]+)/g;
  for (const m of text.matchAll(re)) {
    const pos = m[2]!.split(',').map((s) => Number(s.trim()));
    if (pos.length !== 3 || !pos.every(Number.isFinite)) continue;
    out.push({
      label: m[1]!.trim(),
      pos: pos as [number, number, number],
      width: Number(m[3]),
      length: Number(m[4]),
      height: Number(m[5]),
      yawLength: Number(m[6]),
      yawWidth: Number(m[7]),
    });
  }
  return out;
}

/** The detections a conversation has seen, looked up by label (case-insensitive; the newest block wins). */
export class Readout {
  private readonly byLabel = new Map<string, Detected[]>();
  constructor(readonly all: Detected[]) {
    for (const d of all) {
      const k = d.label.toLowerCase();
      this.byLabel.set(k, [...(this.byLabel.get(k) ?? []).filter((x) => x.pos.join() !== d.pos.join()), d]);
    }
  }
  static fromText(text: string): Readout {
    return new Readout(parseDetections(text));
  }
  /** The detections whose label is `label` or contains all its words; throws naming what was seen when none. */
  find(label: string): Detected[] {
    const q = label.toLowerCase();
    const exact = this.byLabel.get(q);
    if (exact) return exact;
    const words = q.split(/\s+/);
    const hits = this.all.filter((d) => words.every((w) => d.label.toLowerCase().includes(w)));
    if (hits.length === 0) throw new Error(`no detection of "${label}" (seen: ${[...this.byLabel.keys()].join(', ') || 'none'})`);
    return hits;
  }
  one(label: string): Detected {
    return this.find(label)[0]!;
  }
}
