// Chat messages stored once per trace, by hash. A role_call line lists its messages as hashes; each distinct
// message is a `message` record written before the first line that refers to it, and each distinct image a
// `blob` record (its bytes, base64) written before the first message that shows it. MALMM repeats the whole
// history in every call, so a run's calls share almost all their messages.
import { createHash } from 'node:crypto';
import { Buffer } from 'node:buffer';
import * as z from 'zod';
import { ChatMessage, TextPart } from '../../../protocol/trace.js';

/** Hex characters of the SHA-256 kept as a message's id (64 bits; the writer detects a collision and inlines). */
export const MESSAGE_HASH_CHARS = 16;

/** An image part as stored in a message record: no bytes (those are in the blob record), `blob` when it had some. */
const DiskImagePart = z.object({
  type: z.literal('image'),
  mediaType: z.string(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  alt: z.string().optional(),
  blob: z.literal(true).optional(),
});
export const DiskMessage = z.object({
  role: ChatMessage.shape.role,
  content: z.string(),
  name: z.string().optional(),
  parts: z.array(z.discriminatedUnion('type', [TextPart, DiskImagePart])).optional(),
});
export type DiskMessage = z.infer<typeof DiskMessage>;

export const MessageRecord = z.object({ record: z.literal('message'), hash: z.string().regex(/^[0-9a-f]{8,64}$/), message: DiskMessage });
export const BlobRecord = z.object({ record: z.literal('blob'), sha256: z.string().regex(/^[0-9a-f]{64}$/), mediaType: z.string(), dataBase64: z.string() });

/** The stored form of a message, with keys in a fixed order so equal messages serialise (and hash) equally. */
function toDisk(m: ChatMessage): DiskMessage {
  const d: DiskMessage = { role: m.role, content: m.content };
  if (m.name !== undefined) d.name = m.name;
  if (m.parts !== undefined) {
    d.parts = m.parts.map((p) => {
      if (p.type === 'text') return { type: 'text', text: p.text };
      const q: z.infer<typeof DiskImagePart> = { type: 'image', mediaType: p.mediaType, sha256: p.sha256 };
      if (p.alt !== undefined) q.alt = p.alt;
      if (p.dataBase64 !== undefined) q.blob = true;
      return q;
    });
  }
  return d;
}

function sha256Hex(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

export interface EncodedMessages {
  /** What the role_call line holds in `messages`: a hash per message (a message object only after a collision). */
  refs: (string | ChatMessage)[];
  /** Record lines (with their '\n') to write before the role_call line. */
  records: string[];
  /** Marks the records as written; call once they are on disk. */
  commit(): void;
}

/** Writer side: remembers which messages and images the trace already holds. */
export class MessageEncoder {
  private readonly hashOf = new Map<string, string>();
  private readonly jsonOf = new Map<string, string>();
  private readonly blobs = new Map<string, string>();

  /** Throws when an image part's sha256 does not match its bytes (the trace would name the wrong image). */
  encode(messages: readonly ChatMessage[]): EncodedMessages {
    const refs: (string | ChatMessage)[] = [];
    const records: string[] = [];
    const newMessages: [string, string][] = [];
    const newBlobs: [string, string][] = [];
    const pendingJson = new Map<string, string>();
    for (const m of messages) {
      for (const p of m.parts ?? []) {
        if (p.type !== 'image' || p.dataBase64 === undefined) continue;
        const known = this.blobs.get(p.sha256) ?? newBlobs.find(([sha]) => sha === p.sha256)?.[1];
        if (known === p.dataBase64) continue;
        const actual = sha256Hex(Buffer.from(p.dataBase64, 'base64'));
        if (actual !== p.sha256) throw new Error(`image part: sha256 ${p.sha256} does not match its data (sha256 ${actual})`);
        if (known !== undefined) continue;
        newBlobs.push([p.sha256, p.dataBase64]);
        records.push(JSON.stringify({ record: 'blob', sha256: p.sha256, mediaType: p.mediaType, dataBase64: p.dataBase64 }) + '\n');
      }
      const json = JSON.stringify(toDisk(m));
      let hash = this.hashOf.get(json) ?? pendingJson.get(json);
      if (hash === undefined) {
        hash = sha256Hex(json).slice(0, MESSAGE_HASH_CHARS);
        const other = this.jsonOf.get(hash) ?? newMessages.find(([h]) => h === hash)?.[1];
        if (other !== undefined && other !== json) {
          // Two different messages with the same short hash: this one goes into the line itself.
          refs.push(m);
          continue;
        }
        pendingJson.set(json, hash);
        newMessages.push([hash, json]);
        records.push(`{"record":"message","hash":"${hash}","message":${json}}\n`);
      }
      refs.push(hash);
    }
    return {
      refs,
      records,
      commit: () => {
        for (const [hash, json] of newMessages) {
          this.hashOf.set(json, hash);
          this.jsonOf.set(hash, json);
        }
        for (const [sha, data] of newBlobs) this.blobs.set(sha, data);
      },
    };
  }
}

export interface ContentProblem {
  kind: 'missing_content';
  message: string;
}

/** Reader side: the message and blob records of one trace, and the resolution of role_call references. */
export class ContentStore {
  private readonly messages = new Map<string, DiskMessage>();
  private readonly blobs = new Map<string, { mediaType: string; dataBase64: string }>();

  /** Adds a record; returns an error text when it is not a valid record. */
  add(json: Record<string, unknown>): string | undefined {
    if (json.record === 'message') {
      const r = MessageRecord.safeParse(json);
      if (!r.success) return `message record is invalid at ${r.error.issues[0]?.path.join('.') || '(root)'}: ${r.error.issues[0]?.message}`;
      this.messages.set(r.data.hash, r.data.message);
      return undefined;
    }
    if (json.record === 'blob') {
      const r = BlobRecord.safeParse(json);
      if (!r.success) return `blob record is invalid at ${r.error.issues[0]?.path.join('.') || '(root)'}: ${r.error.issues[0]?.message}`;
      this.blobs.set(r.data.sha256, { mediaType: r.data.mediaType, dataBase64: r.data.dataBase64 });
      return undefined;
    }
    return `unknown record kind ${JSON.stringify(json.record)}`;
  }

  /**
   * The messages a role_call line refers to. A hash with no record becomes a placeholder message naming it (and a
   * problem); inline message objects (traces of schema v1, or a hash collision) pass through for validation.
   */
  resolve(refs: unknown[], where: string, problems: ContentProblem[]): unknown[] {
    return refs.map((ref) => {
      if (typeof ref !== 'string') return ref;
      const d = this.messages.get(ref);
      if (!d) {
        problems.push({ kind: 'missing_content', message: `${where} refers to message ${ref}, which is not in the trace; shown as a placeholder` });
        return { role: 'user', content: `[message ${ref} is missing from this trace]` };
      }
      const m: ChatMessage = { role: d.role, content: d.content };
      if (d.name !== undefined) m.name = d.name;
      if (d.parts) {
        m.parts = d.parts.map((p) => {
          if (p.type === 'text') return { type: 'text', text: p.text };
          const q: Extract<NonNullable<ChatMessage['parts']>[number], { type: 'image' }> = { type: 'image', mediaType: p.mediaType, sha256: p.sha256 };
          if (p.blob) {
            const blob = this.blobs.get(p.sha256);
            if (blob) q.dataBase64 = blob.dataBase64;
            else problems.push({ kind: 'missing_content', message: `${where}: image ${p.sha256} of message ${ref} is not in the trace; shown without its picture` });
          }
          if (p.alt !== undefined) q.alt = p.alt;
          return q;
        });
      }
      return m;
    });
  }
}
