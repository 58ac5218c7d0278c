// A tiny MJCF writer: elements as nested data, numbers formatted without float noise, attributes escaped.
export type Attr = string | number | readonly number[] | boolean | undefined;

export interface MjcfElement {
  tag: string;
  attrs?: Record<string, Attr>;
  children?: MjcfElement[];
}

export function el(tag: string, attrs: Record<string, Attr> = {}, children: MjcfElement[] = []): MjcfElement {
  return { tag, attrs, children };
}

/** Numbers with at most 9 significant decimals, so the same spec always yields the same XML text. */
export function num(x: number): string {
  if (!Number.isFinite(x)) throw new Error(`MJCF: non-finite number ${x}`);
  const s = Number(x.toFixed(9)).toString();
  return s === '-0' ? '0' : s;
}

function attrText(v: Exclude<Attr, undefined>): string {
  if (typeof v === 'number') return num(v);
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'string') return v.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  return v.map(num).join(' ');
}

export function renderMjcf(node: MjcfElement, indent = ''): string {
  const attrs = Object.entries(node.attrs ?? {})
    .filter((e): e is [string, Exclude<Attr, undefined>] => e[1] !== undefined)
    .map(([k, v]) => ` ${k}="${attrText(v)}"`)
    .join('');
  const kids = node.children ?? [];
  if (kids.length === 0) return `${indent}<${node.tag}${attrs}/>`;
  return [`${indent}<${node.tag}${attrs}>`, ...kids.map((k) => renderMjcf(k, indent + '  ')), `${indent}</${node.tag}>`].join('\n');
}

/** Quaternion (w, x, y, z) of a rotation by `angleRad` about a unit axis. */
export function axisAngleQuat(axis: readonly [number, number, number], angleRad: number): [number, number, number, number] {
  const s = Math.sin(angleRad / 2);
  return [Math.cos(angleRad / 2), axis[0] * s, axis[1] * s, axis[2] * s];
}
