// The episode table as CSV (RFC 4180): a header line, CRLF line ends, a field quoted when it holds a comma, a quote,
// a CR or an LF (quotes doubled inside). A missing value is an empty field; booleans are true / false; numbers are
// JavaScript's shortest round-trip form, so a reader gets the same double back.
import type { Cell, EpisodeTable } from './episodeTable.js';

function field(v: Cell): string {
  if (v === null) return '';
  const s = typeof v === 'string' ? v : String(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function toCsv(t: EpisodeTable): string {
  const lines = [t.columns.map((c) => field(c.name)).join(',')];
  for (let i = 0; i < t.rows; i++) lines.push(t.columns.map((c) => field(c.values[i])).join(','));
  return lines.join('\r\n') + '\r\n';
}
