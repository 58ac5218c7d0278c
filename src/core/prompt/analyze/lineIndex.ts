// Offset <-> (line, UTF-16 column) conversion over one text, built once per analysis.
import type { Pos, Span } from './types.js';

export class LineIndex {
  /** Offset of the first character of each line. */
  readonly starts: number[];

  constructor(readonly text: string) {
    const starts = [0];
    let i = text.indexOf('\n');
    while (i !== -1) {
      starts.push(i + 1);
      i = text.indexOf('\n', i + 1);
    }
    this.starts = starts;
  }

  get lineCount(): number {
    return this.starts.length;
  }

  pos(offset: number): Pos {
    const o = Math.max(0, Math.min(offset, this.text.length));
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid] <= o) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo, character: o - this.starts[lo] };
  }

  span(start: number, end: number): Span {
    return { start: this.pos(start), end: this.pos(end) };
  }

  offset(p: Pos): number {
    if (p.line < 0) return 0;
    if (p.line >= this.starts.length) return this.text.length;
    return Math.min(this.starts[p.line] + p.character, this.lineEnd(p.line));
  }

  /** Offset just after the line's last character, before its '\r\n' or '\n'. */
  lineEnd(line: number): number {
    const next = line + 1 < this.starts.length ? this.starts[line + 1] - 1 : this.text.length;
    return next > this.starts[line] && this.text.charCodeAt(next - 1) === 13 ? next - 1 : next;
  }

  lineText(line: number): string {
    return this.text.slice(this.starts[line], this.lineEnd(line));
  }
}
