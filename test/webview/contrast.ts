// WCAG 2.x contrast of rendered text, measured in the page: for every visible text node (shadow roots included),
// the colour it is drawn in (alpha and ancestor opacity applied) against the backgrounds behind it, composited
// up the flattened tree until an opaque one. Canvas drawings (charts, 3D) are not text nodes and are not
// measured here. AA asks 4.5:1 for body text and 3:1 for large text (24 px, or 18.66 px bold).

export interface ContrastFailure {
  text: string;
  where: string;
  fg: string;
  bg: string;
  ratio: number;
  required: number;
}

/** Runs in the browser (page.evaluate): returns the text that falls under AA, and how much text was measured. */
export function measureContrast(rootSelector: string): { checked: number; failures: ContrastFailure[] } {
  type RGBA = [number, number, number, number];
  const parse = (s: string): RGBA | undefined => {
    let m = /^rgba?\(([\d.]+),\s*([\d.]+),\s*([\d.]+)(?:,\s*([\d.]+))?\)$/.exec(s);
    if (m) return [Number(m[1]), Number(m[2]), Number(m[3]), m[4] === undefined ? 1 : Number(m[4])];
    // color-mix() and friends compute to color(srgb r g b / a) with components in 0..1.
    m = /^color\(srgb ([\d.e-]+) ([\d.e-]+) ([\d.e-]+)(?: \/ ([\d.e-]+))?\)$/.exec(s);
    if (m) return [Number(m[1]) * 255, Number(m[2]) * 255, Number(m[3]) * 255, m[4] === undefined ? 1 : Number(m[4])];
    return undefined;
  };
  const over = (top: RGBA, bottom: RGBA): RGBA => {
    const a = top[3] + bottom[3] * (1 - top[3]);
    if (a === 0) return [0, 0, 0, 0];
    const c = (i: number) => (top[i] * top[3] + bottom[i] * bottom[3] * (1 - top[3])) / a;
    return [c(0), c(1), c(2), a];
  };
  const lum = (c: RGBA) => {
    const f = (v: number) => {
      const s = v / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    };
    return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]);
  };
  const hex = (c: RGBA) => '#' + c.slice(0, 3).map((v) => Math.round(v).toString(16).padStart(2, '0')).join('');
  // The parent a box is painted over: the slot a light-DOM child is shown in, else the parent, else the shadow host.
  const up = (el: Element): Element | null => (el as HTMLElement).assignedSlot ?? el.parentElement ?? ((el.getRootNode() as ShadowRoot).host ?? null);
  const background = (el: Element): RGBA => {
    const layers: RGBA[] = [];
    for (let e: Element | null = el; e; e = up(e)) {
      const c = parse(getComputedStyle(e).backgroundColor);
      if (c && c[3] > 0) {
        layers.push(c);
        if (c[3] >= 1) break;
      }
    }
    let bg: RGBA = [255, 255, 255, 1]; // the canvas behind the page
    for (let i = layers.length - 1; i >= 0; i--) bg = over(layers[i], bg);
    return bg;
  };
  const opacity = (el: Element) => {
    let o = 1;
    for (let e: Element | null = el; e; e = up(e)) o *= Number(getComputedStyle(e).opacity);
    return o;
  };
  const describe = (el: Element) => {
    const parts: string[] = [];
    for (let e: Element | null = el; e && parts.length < 4; e = up(e)) parts.unshift(`${e.tagName.toLowerCase()}${e.classList.length ? '.' + [...e.classList].join('.') : ''}`);
    return parts.join(' > ');
  };
  const failures: ContrastFailure[] = [];
  let checked = 0;
  const seen = new Set<Element>();
  const visit = (root: Node) => {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
    for (let n = walker.currentNode as Node | null; n; n = walker.nextNode()) {
      if (n.nodeType === Node.ELEMENT_NODE) {
        const sr = (n as Element).shadowRoot;
        if (sr) visit(sr);
        continue;
      }
      const text = n.textContent?.trim();
      const el = n.parentElement;
      if (!text || !el || seen.has(el)) continue;
      const range = document.createRange();
      range.selectNodeContents(n);
      const rect = range.getBoundingClientRect();
      if (rect.width === 0 || rect.height === 0) continue;
      if (!el.checkVisibility({ opacityProperty: true, visibilityProperty: true })) continue;
      seen.add(el);
      const cs = getComputedStyle(el);
      const fgRaw = parse(cs.color);
      if (!fgRaw) continue;
      const bg = background(el);
      const fg = over([fgRaw[0], fgRaw[1], fgRaw[2], fgRaw[3] * opacity(el)], bg);
      const [a, b] = [lum(fg), lum(bg)];
      const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
      const size = parseFloat(cs.fontSize);
      const large = size >= 24 || (size >= 18.66 && Number(cs.fontWeight) >= 700);
      const required = large ? 3 : 4.5;
      checked++;
      if (ratio < required - 0.005) failures.push({ text: text.slice(0, 60), where: describe(el), fg: hex(fg), bg: hex(bg), ratio: Math.round(ratio * 100) / 100, required });
    }
  };
  const root = document.querySelector(rootSelector);
  if (root) visit(root);
  return { checked, failures };
}
