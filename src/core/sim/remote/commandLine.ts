// Splits "stdio:<command line>" into argv without a shell: whitespace separates, single and double quotes group,
// backslash escapes the next character outside single quotes. No globbing, variables or pipes.

export function splitCommandLine(line: string): string[] {
  const out: string[] = [];
  let cur = '';
  let has = false;
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote === "'") {
      if (c === "'") quote = null;
      else cur += c;
    } else if (c === '\\' && i + 1 < line.length && (quote === null || line[i + 1] === '"' || line[i + 1] === '\\')) {
      cur += line[++i];
      has = true;
    } else if (quote === '"') {
      if (c === '"') quote = null;
      else cur += c;
    } else if (c === '"' || c === "'") {
      quote = c;
      has = true;
    } else if (/\s/.test(c)) {
      if (has || cur) out.push(cur);
      cur = '';
      has = false;
    } else {
      cur += c;
      has = true;
    }
  }
  if (quote) throw new Error(`unterminated ${quote} quote in command line: ${line}`);
  if (has || cur) out.push(cur);
  return out;
}
