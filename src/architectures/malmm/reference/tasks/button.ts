// "Push the button." (push_button): press it from above with the gripper closed. A spring pushes the button back,
// so the state cannot show a press afterwards: the press counts as done once a block that pressed it has run.
import { isFlat } from '../scene.js';
import { resolve } from './common.js';
import type { TaskFamily } from './types.js';

export const button: TaskFamily = {
  id: 'button',
  read(sentence, initial) {
    const m = /\b(?:push|press|hit)\s+(?:down\s+)?(?:the\s+)?([^,.;:]+?)\s*\.?$/i.exec(sentence.trim());
    if (!m || /\b(?:can|block|cube|drawer)\b/i.test(m[1]!)) return undefined;
    const r = resolve(initial, [m[1]!]);
    if (typeof r === 'string') return r;
    const name = r[0]!;
    if (isFlat(initial.objects.find((o) => o.name === name)!)) return `the ${name} is flat; there is nothing to press`;
    return {
      family: 'button',
      goals(view) {
        return [{ label: `press the ${name}`, done: view.pressed.has(name), action: { kind: 'press', object: name } }];
      },
    };
  },
};
