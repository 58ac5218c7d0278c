// A run's `vision` switch: the camera frames an architecture hands to callRole go onto the role's request as image
// parts when it is on (a vision model), and nowhere when it is off, so text-only runs send exactly what they did.
import { Buffer } from 'node:buffer';
import { createHash } from 'node:crypto';
import type { ChatMessage, ContentPart } from '../../protocol/trace.js';
import type { ObservationImage } from '../../protocol/simulator.js';

/** What a text-only view shows in an image's place, e.g. "Alice's egocentric camera, 64x64 PNG". */
export function imageAlt(img: ObservationImage): string {
  const whose = img.agent !== undefined ? `${img.agent}'s ${img.camera} camera` : `${img.camera} camera`;
  const size = img.width !== undefined && img.height !== undefined ? `, ${img.width}x${img.height}` : '';
  return `${whose}${size} ${img.mediaType === 'image/png' ? 'PNG' : 'JPEG'}`;
}

export function imagePart(img: ObservationImage): Extract<ContentPart, { type: 'image' }> {
  const sha256 = createHash('sha256').update(Buffer.from(img.dataBase64, 'base64')).digest('hex');
  return { type: 'image', mediaType: img.mediaType, sha256, dataBase64: img.dataBase64, alt: imageAlt(img) };
}

/**
 * The rendered messages with `images` on the request message (`requestIndex`, else the last user message): its
 * text first, then one image part per frame; `content` keeps the text and names the images for text-only views.
 * Unchanged when vision is off or there are no images.
 */
export function withImages(messages: ChatMessage[], images: readonly ObservationImage[] | undefined, vision: boolean, requestIndex?: number): ChatMessage[] {
  if (!vision || !images || images.length === 0) return messages;
  const at = requestIndex ?? messages.map((m) => m.role).lastIndexOf('user');
  const m = messages[at];
  if (!m || m.role !== 'user') return messages;
  const parts = images.map(imagePart);
  const named = parts.map((p) => `[image: ${p.alt}]`).join('\n');
  const out = messages.slice();
  out[at] = { ...m, content: `${m.content}\n\n${named}`, parts: [{ type: 'text', text: m.content }, ...parts] };
  return out;
}
