// A small SVG element builder for the LMTG tabs.
const SVG = 'http://www.w3.org/2000/svg';

export function s<K extends keyof SVGElementTagNameMap>(tag: K, attrs: Record<string, string | number>, ...children: (SVGElement | string)[]): SVGElementTagNameMap[K] {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  for (const c of children) el.appendChild(typeof c === 'string' ? document.createTextNode(c) : c);
  return el;
}

/** A distinct hue per step, readable on dark and light themes. */
export function stepColor(i: number, n: number): string {
  return `hsl(${Math.round((300 * i) / Math.max(1, n - 1 || 1))}, 75%, 55%)`;
}
