// The reference-flawed profile's dice, shared by the architectures' policies: a number in [0, 1) fixed by the
// conversation and the request seed, so the same run makes the same mistakes.
import type { ChatMessage } from '../../../protocol/trace.js';

/** FNV-1a over the conversation and the seed, mapped to [0, 1). */
export function conversationHash(messages: ChatMessage[], seed = 0, salt = ''): number {
  let h = 0x811c9dc5 ^ (seed >>> 0);
  const text = `${salt}\u0000${messages.map((m) => `${m.role}:${m.content}`).join('\u0001')}`;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h / 0x100000000;
}
