// A small, safe "markdown-ish" renderer for model messages: fenced code blocks, headings, bullet/numbered
// lists, **bold** and `inline code`. Builds DOM nodes only (no HTML strings), so a hostile trace cannot inject markup.
import { h } from './dom.js';

const FENCE = /^```\s*([\w+-]*)\s*$/;

export function renderMarkdown(text: string): HTMLElement {
  const root = h('div', { class: 'md' });
  const lines = text.split('\n');
  let para: string[] = [];
  let list: HTMLElement | null = null;
  const flushPara = () => {
    if (para.length) root.appendChild(h('p', null, ...inline(para.join('\n'))));
    para = [];
  };
  const closeList = () => {
    list = null;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const fence = FENCE.exec(line.trim());
    if (fence) {
      flushPara();
      closeList();
      const body: string[] = [];
      i++;
      while (i < lines.length && !/^```\s*$/.test(lines[i].trim())) body.push(lines[i++]);
      const lang = fence[1] || 'text';
      root.appendChild(h('pre', { class: 'code', 'data-lang': lang }, h('code', null, body.join('\n'))));
      continue;
    }
    const heading = /^(#{1,4})\s+(.*)$/.exec(line);
    if (heading) {
      flushPara();
      closeList();
      root.appendChild(h(`h${Math.min(6, heading[1].length + 3)}` as 'h4', { class: 'md-h' }, ...inline(heading[2])));
      continue;
    }
    const bullet = /^\s*(?:[-*]|(\d+)[.)])\s+(.*)$/.exec(line);
    if (bullet) {
      flushPara();
      const ordered = bullet[1] !== undefined;
      if (!list || (list.tagName === 'OL') !== ordered) {
        list = h(ordered ? 'ol' : 'ul', ordered && bullet[1] !== '1' ? { start: bullet[1] } : null);
        root.appendChild(list);
      }
      list.appendChild(h('li', null, ...inline(bullet[2])));
      continue;
    }
    if (line.trim() === '') {
      flushPara();
      closeList();
      continue;
    }
    closeList();
    para.push(line);
  }
  flushPara();
  return root;
}

function inline(text: string): Node[] {
  const out: Node[] = [];
  const re = /(`[^`\n]+`)|(\*\*[^*\n]+\*\*)/g;
  let last = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (m.index > last) out.push(document.createTextNode(text.slice(last, m.index)));
    if (m[1]) out.push(h('code', { class: 'inline' }, m[1].slice(1, -1)));
    else out.push(h('strong', null, m[2].slice(2, -2)));
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push(document.createTextNode(text.slice(last)));
  return out;
}
