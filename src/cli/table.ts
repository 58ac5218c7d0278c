// Aligned plain-text tables for listing commands: a header row, columns padded to their widest cell, two spaces
// between columns, no trailing spaces (so `cut`, `awk` and `column` read them as well as people do).

export function formatTable(headers: readonly string[], rows: readonly (readonly string[])[], o: { right?: readonly number[] } = {}): string {
  // A column that is empty in every row is dropped (e.g. notes when nothing needs one).
  const keep = headers.map((_, i) => rows.some((r) => (r[i] ?? '') !== ''));
  const cols = headers.map((_, i) => i).filter((i) => keep[i]);
  const width = cols.map((i) => Math.max(headers[i].length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cols
      .map((i, k) => {
        const cell = cells[i] ?? '';
        if (k === cols.length - 1) return o.right?.includes(i) ? cell.padStart(width[k]) : cell;
        return o.right?.includes(i) ? cell.padStart(width[k]) : cell.padEnd(width[k]);
      })
      .join('  ')
      .replace(/\s+$/, '');
  return [line(headers), ...rows.map(line)].join('\n');
}
