// A sentence-transformers folder on disk (e.g. a copy of sentence-transformers/all-MiniLM-L6-v2) read as
// sentence-transformers runs it: modules.json lists Transformer -> Pooling -> optional Normalize; the Transformer is
// a BERT encoder (config.json, model.safetensors, tokenizer.json); Pooling's config says cls / mean / max / ...;
// Normalize scales to unit length. Everything is checked while loading, so a folder that cannot work fails before
// a run starts, with the file and the cause.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { BertEncoder, bertConfigOf } from './bert.js';
import { LocalModelError } from './errors.js';
import { readSafetensors } from './safetensors.js';
import { WordPieceTokenizer } from './tokenizer.js';

/** sentence-transformers' pooling modes, in the order it concatenates them when several are on. */
export const POOLING_MODES = ['cls', 'max', 'mean', 'mean_sqrt_len_tokens', 'weightedmean', 'lasttoken'] as const;
export type PoolingMode = (typeof POOLING_MODES)[number];

export interface SentenceModel {
  /** Length of each vector. */
  readonly dimensions: number;
  readonly pooling: readonly PoolingMode[];
  readonly normalize: boolean;
  readonly maxLength: number;
  /** Input ids with [CLS] and [SEP], truncated to maxLength (what the Python tokenizer gives). */
  tokenize(text: string): number[];
  /** One vector per text, in order. */
  embed(texts: readonly string[]): Float32Array[];
}

function readJson(file: string, required: true): unknown;
function readJson(file: string, required: false): unknown | undefined;
function readJson(file: string, required: boolean): unknown | undefined {
  if (!existsSync(file)) {
    if (required) throw new LocalModelError('missing file', file);
    return undefined;
  }
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new LocalModelError(`not valid JSON (${(e as Error).message})`, file);
  }
}

const lastName = (type: unknown) => (typeof type === 'string' ? type.split('.').pop() : undefined);

/** Loads and checks the folder; throws LocalModelError naming the file and the cause. */
export function loadSentenceModel(dir: string): SentenceModel {
  if (!existsSync(dir)) throw new LocalModelError('no such folder', dir);
  if (!statSync(dir).isDirectory()) throw new LocalModelError('not a folder (a local embedding model is a sentence-transformers folder)', dir);
  // Without modules.json sentence-transformers takes a plain Hugging Face model with mean pooling; so do we.
  const modulesFile = join(dir, 'modules.json');
  const modules = readJson(modulesFile, false);
  let transformerPath = '';
  let pooling: PoolingMode[] = ['mean'];
  let normalize = false;
  let poolingDim: number | undefined;
  let poolingFile = '';
  if (modules !== undefined) {
    if (!Array.isArray(modules)) throw new LocalModelError('not a JSON list of modules', modulesFile);
    const seen = new Set<string>();
    for (const m of modules as { type?: unknown; path?: unknown }[]) {
      const kind = lastName(m?.type);
      const path = typeof m?.path === 'string' ? m.path : '';
      if (kind === 'Transformer') transformerPath = path;
      else if (kind === 'Pooling') {
        poolingFile = join(dir, path, 'config.json');
        [pooling, poolingDim] = poolingOf(poolingFile);
      } else if (kind === 'Normalize') normalize = true;
      else throw new LocalModelError(`module ${String(m?.type)} is not supported (Transformer, Pooling and Normalize are)`, modulesFile);
      seen.add(kind);
    }
    if (!seen.has('Transformer')) throw new LocalModelError('no Transformer module', modulesFile);
    if (!seen.has('Pooling')) throw new LocalModelError('no Pooling module (token vectors are not a sentence embedding)', modulesFile);
  }
  const root = join(dir, transformerPath);
  const configFile = join(root, 'config.json');
  const config = bertConfigOf(readJson(configFile, true), configFile);
  if (poolingDim !== undefined && poolingDim !== config.hiddenSize) throw new LocalModelError(`pooling dimension ${poolingDim} is not the encoder's hidden_size ${config.hiddenSize} (config.json)`, poolingFile);
  const sbert = readJson(join(root, 'sentence_bert_config.json'), false) as { max_seq_length?: unknown; do_lower_case?: unknown } | undefined;
  const tokConfig = readJson(join(root, 'tokenizer_config.json'), false) as { model_max_length?: unknown } | undefined;
  // sentence-transformers 2-5 keep max_seq_length in sentence_bert_config.json, 6 in the tokenizer's model_max_length.
  const declared = [sbert?.max_seq_length, tokConfig?.model_max_length].find((v): v is number => Number.isInteger(v) && (v as number) > 0 && (v as number) < 1e6);
  const maxLength = Math.min(declared ?? config.maxPositions, config.maxPositions);
  const tokFile = join(root, 'tokenizer.json');
  const tokenizer = new WordPieceTokenizer(readJson(tokFile, true), tokFile, { maxLength, lowerCaseFirst: sbert?.do_lower_case === true });
  if (tokenizer.maxId >= config.vocabSize) throw new LocalModelError(`token id ${tokenizer.maxId} is outside config.json's vocab_size ${config.vocabSize} (a tokenizer of another model?)`, tokFile);
  const weightsFile = join(root, 'model.safetensors');
  if (!existsSync(weightsFile)) {
    const bin = existsSync(join(root, 'pytorch_model.bin')) ? ' (pytorch_model.bin is not read: save the model with safe_serialization=True)' : '';
    throw new LocalModelError(`missing file${bin}`, weightsFile);
  }
  const encoder = new BertEncoder(config, readSafetensors(readFileSync(weightsFile), weightsFile), weightsFile);
  const H = config.hiddenSize;
  return {
    dimensions: H * pooling.length,
    pooling,
    normalize,
    maxLength,
    tokenize: (text) => tokenizer.encode(text),
    embed(texts) {
      const ids = texts.map((t) => tokenizer.encode(t));
      const hidden = encoder.forward(ids);
      let row = 0;
      return ids.map((s) => {
        const v = pool(hidden, row, s.length, H, pooling);
        row += s.length;
        return normalize ? unit(v) : v;
      });
    },
  };
}

function poolingOf(file: string): [PoolingMode[], number | undefined] {
  const c = readJson(file, true) as Record<string, unknown>;
  const dim = [c.embedding_dimension, c.word_embedding_dimension].find((v): v is number => Number.isInteger(v));
  let modes: unknown[];
  if (c.pooling_mode !== undefined) modes = Array.isArray(c.pooling_mode) ? c.pooling_mode : [c.pooling_mode];
  else {
    // sentence-transformers before 6: one boolean per mode.
    const legacy: Record<string, PoolingMode> = {
      pooling_mode_cls_token: 'cls', pooling_mode_max_tokens: 'max', pooling_mode_mean_tokens: 'mean',
      pooling_mode_mean_sqrt_len_tokens: 'mean_sqrt_len_tokens', pooling_mode_weightedmean_tokens: 'weightedmean', pooling_mode_lasttoken: 'lasttoken',
    };
    modes = Object.entries(legacy).filter(([k]) => c[k] === true).map(([, m]) => m);
  }
  const bad = modes.find((m) => !(POOLING_MODES as readonly unknown[]).includes(m));
  if (bad !== undefined) throw new LocalModelError(`pooling mode ${JSON.stringify(bad)} is not one of ${POOLING_MODES.join(', ')}`, file);
  if (modes.length === 0) throw new LocalModelError('no pooling mode is on', file);
  return [modes as PoolingMode[], dim];
}

/** The sentence vector from its token vectors (rows start..start+n of `hidden`); several modes are concatenated. */
export function pool(hidden: Float32Array, start: number, n: number, H: number, modes: readonly PoolingMode[]): Float32Array {
  const out = new Float32Array(H * modes.length);
  modes.forEach((mode, m) => {
    const o = m * H;
    const row = (i: number) => (start + i) * H;
    if (mode === 'cls' || mode === 'lasttoken') {
      const r = row(mode === 'cls' ? 0 : n - 1);
      for (let h = 0; h < H; h++) out[o + h] = hidden[r + h]!;
    } else if (mode === 'max') {
      for (let h = 0; h < H; h++) {
        let mx = -Infinity;
        for (let i = 0; i < n; i++) mx = Math.max(mx, hidden[row(i) + h]!);
        out[o + h] = mx;
      }
    } else {
      // mean and its variants: weighted sums over the tokens ([CLS] and [SEP] included, as sentence-transformers).
      const weight = (i: number) => (mode === 'weightedmean' ? i + 1 : 1);
      let total = 0;
      for (let i = 0; i < n; i++) total += weight(i);
      const div = mode === 'mean_sqrt_len_tokens' ? Math.sqrt(total) : total;
      for (let h = 0; h < H; h++) {
        let s = 0;
        for (let i = 0; i < n; i++) s += hidden[row(i) + h]! * weight(i);
        out[o + h] = s / Math.max(div, 1e-9);
      }
    }
  });
  return out;
}

/** x / max(|x|, 1e-12), as torch.nn.functional.normalize. */
export function unit(v: Float32Array): Float32Array {
  let n = 0;
  for (let i = 0; i < v.length; i++) n += v[i]! * v[i]!;
  const s = 1 / Math.max(Math.sqrt(n), 1e-12);
  return v.map((x) => x * s);
}
