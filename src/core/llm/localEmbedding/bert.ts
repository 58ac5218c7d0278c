// BERT's encoder forward pass (Devlin et al. 2019; Hugging Face's BertModel without its pooler), in Float32Arrays:
// token + position + token-type embeddings and LayerNorm, then per layer multi-head self-attention (softmax of
// QK^T / sqrt(head size)), output projection, residual and LayerNorm, then the feed-forward (dense, activation,
// dense), residual and LayerNorm. The sentences of a batch are packed row after row with no padding: the dense layers
// run on every token of every sentence at once, and each sentence's tokens attend only to its own span (the
// attention mask of a padded batch, without computing the padding).
import { LocalModelError } from './errors.js';
import type { Tensor } from './safetensors.js';

export interface BertConfig {
  vocabSize: number;
  hiddenSize: number;
  layers: number;
  heads: number;
  intermediateSize: number;
  maxPositions: number;
  typeVocabSize: number;
  layerNormEps: number;
  hiddenAct: 'gelu' | 'gelu_new' | 'gelu_pytorch_tanh' | 'relu';
}

const ACTS = ['gelu', 'gelu_new', 'gelu_pytorch_tanh', 'gelu_python', 'relu'] as const;

/** The config.json fields the encoder needs; anything that is not a BERT encoder is refused. */
export function bertConfigOf(json: unknown, file: string): BertConfig {
  const c = json as Record<string, unknown>;
  const bad = (cause: string) => new LocalModelError(cause, file);
  if (typeof c !== 'object' || c === null) throw bad('config.json is not a JSON object');
  if (c.model_type !== 'bert') {
    const archs = Array.isArray(c.architectures) ? ` (${c.architectures.join(', ')})` : '';
    throw bad(`model_type is ${JSON.stringify(c.model_type)}${archs}, not "bert": only BERT encoders are read`);
  }
  const int = (k: string, dflt?: number): number => {
    const v = c[k] ?? dflt;
    if (!Number.isInteger(v) || (v as number) <= 0) throw bad(`${k} must be a positive integer, got ${JSON.stringify(c[k])}`);
    return v as number;
  };
  const act = (c.hidden_act ?? 'gelu') as string;
  if (!(ACTS as readonly string[]).includes(act)) throw bad(`hidden_act ${JSON.stringify(act)} is not supported (${ACTS.join(', ')} are)`);
  if (c.position_embedding_type !== undefined && c.position_embedding_type !== 'absolute') throw bad(`position_embedding_type ${JSON.stringify(c.position_embedding_type)} is not supported (absolute is)`);
  const cfg: BertConfig = {
    vocabSize: int('vocab_size'),
    hiddenSize: int('hidden_size'),
    layers: int('num_hidden_layers'),
    heads: int('num_attention_heads'),
    intermediateSize: int('intermediate_size'),
    maxPositions: int('max_position_embeddings', 512),
    typeVocabSize: int('type_vocab_size', 2),
    layerNormEps: typeof c.layer_norm_eps === 'number' ? c.layer_norm_eps : 1e-12,
    hiddenAct: (act === 'gelu_python' ? 'gelu' : act) as BertConfig['hiddenAct'],
  };
  if (cfg.hiddenSize % cfg.heads !== 0) throw bad(`hidden_size ${cfg.hiddenSize} is not a multiple of num_attention_heads ${cfg.heads}`);
  return cfg;
}

interface Linear {
  w: Float32Array;
  b: Float32Array;
  inDim: number;
  outDim: number;
}
interface Norm {
  g: Float32Array;
  b: Float32Array;
}
interface Layer {
  q: Linear;
  k: Linear;
  v: Linear;
  attnOut: Linear;
  attnNorm: Norm;
  up: Linear;
  down: Linear;
  outNorm: Norm;
}

export class BertEncoder {
  readonly config: BertConfig;
  readonly #word: Float32Array;
  readonly #pos: Float32Array;
  readonly #type: Float32Array;
  readonly #embNorm: Norm;
  readonly #layers: Layer[];

  /** `tensors`: model.safetensors by name (a "bert." prefix, as saved by BertFor... heads, is accepted). */
  constructor(config: BertConfig, tensors: Map<string, Tensor>, file: string) {
    this.config = config;
    const H = config.hiddenSize;
    const get = (name: string, shape: number[]): Float32Array => {
      const t = tensors.get(name) ?? tensors.get(`bert.${name}`);
      if (!t) throw new LocalModelError(`tensor ${name} is missing (not a BERT encoder's weights?)`, file);
      if (t.shape.length !== shape.length || t.shape.some((d, i) => d !== shape[i])) {
        throw new LocalModelError(`tensor ${name} has shape [${t.shape.join(', ')}], config.json implies [${shape.join(', ')}]`, file);
      }
      return t.data;
    };
    const linear = (name: string, outDim: number, inDim: number): Linear => ({ w: get(`${name}.weight`, [outDim, inDim]), b: get(`${name}.bias`, [outDim]), inDim, outDim });
    const norm = (name: string): Norm => ({ g: get(`${name}.weight`, [H]), b: get(`${name}.bias`, [H]) });
    this.#word = get('embeddings.word_embeddings.weight', [config.vocabSize, H]);
    this.#pos = get('embeddings.position_embeddings.weight', [config.maxPositions, H]);
    this.#type = get('embeddings.token_type_embeddings.weight', [config.typeVocabSize, H]);
    this.#embNorm = norm('embeddings.LayerNorm');
    this.#layers = [];
    for (let i = 0; i < config.layers; i++) {
      const p = `encoder.layer.${i}`;
      this.#layers.push({
        q: linear(`${p}.attention.self.query`, H, H),
        k: linear(`${p}.attention.self.key`, H, H),
        v: linear(`${p}.attention.self.value`, H, H),
        attnOut: linear(`${p}.attention.output.dense`, H, H),
        attnNorm: norm(`${p}.attention.output.LayerNorm`),
        up: linear(`${p}.intermediate.dense`, config.intermediateSize, H),
        down: linear(`${p}.output.dense`, H, config.intermediateSize),
        outNorm: norm(`${p}.output.LayerNorm`),
      });
    }
  }

  /**
   * The last hidden state of each sentence: rows [sum of earlier lengths, + its length) of the result, hidden size
   * wide. Ids must be below vocab_size and sentences no longer than max_position_embeddings (the tokenizer truncates).
   */
  forward(sentences: readonly (readonly number[])[]): Float32Array {
    const { hiddenSize: H, maxPositions, vocabSize } = this.config;
    const rows = sentences.reduce((n, s) => n + s.length, 0);
    const x = new Float32Array(rows * H);
    let r = 0;
    for (const ids of sentences) {
      if (ids.length > maxPositions) throw new Error(`a sentence of ${ids.length} tokens exceeds max_position_embeddings ${maxPositions}`);
      ids.forEach((id, p) => {
        if (!(id >= 0 && id < vocabSize)) throw new Error(`token id ${id} is outside the vocabulary of ${vocabSize}`);
        const o = (r + p) * H;
        // Token type 0: one sentence per input, as sentence-transformers encodes.
        for (let h = 0; h < H; h++) x[o + h] = this.#word[id * H + h]! + this.#pos[p * H + h]! + this.#type[h]!;
      });
      r += ids.length;
    }
    layerNorm(x, rows, H, this.#embNorm, this.config.layerNormEps);
    const lengths = sentences.map((s) => s.length);
    let h: Float32Array = x;
    for (const layer of this.#layers) h = this.#layer(h, rows, lengths, layer);
    return h;
  }

  #layer(x: Float32Array, rows: number, lengths: readonly number[], L: Layer): Float32Array {
    const { hiddenSize: H, layerNormEps: eps } = this.config;
    const ctx = this.#attention(linear(x, rows, L.q), linear(x, rows, L.k), linear(x, rows, L.v), lengths);
    const a = linear(ctx, rows, L.attnOut);
    for (let i = 0; i < a.length; i++) a[i]! += x[i]!;
    layerNorm(a, rows, H, L.attnNorm, eps);
    const up = linear(a, rows, L.up);
    activate(up, this.config.hiddenAct);
    const out = linear(up, rows, L.down);
    for (let i = 0; i < out.length; i++) out[i]! += a[i]!;
    layerNorm(out, rows, H, L.outNorm, eps);
    return out;
  }

  /** Scaled dot-product attention per head, each sentence over its own tokens only. */
  #attention(q: Float32Array, k: Float32Array, v: Float32Array, lengths: readonly number[]): Float32Array {
    const { hiddenSize: H, heads } = this.config;
    const d = H / heads;
    const scale = 1 / Math.sqrt(d);
    const out = new Float32Array(q.length);
    const scores = new Float64Array(Math.max(0, ...lengths));
    let start = 0;
    for (const n of lengths) {
      for (let head = 0; head < heads; head++) {
        const off = head * d;
        for (let i = 0; i < n; i++) {
          const qo = (start + i) * H + off;
          let max = -Infinity;
          for (let j = 0; j < n; j++) {
            const ko = (start + j) * H + off;
            let s = 0;
            for (let t = 0; t < d; t++) s += q[qo + t]! * k[ko + t]!;
            s *= scale;
            scores[j] = s;
            if (s > max) max = s;
          }
          let sum = 0;
          for (let j = 0; j < n; j++) sum += scores[j] = Math.exp(scores[j]! - max);
          const oo = (start + i) * H + off;
          for (let j = 0; j < n; j++) {
            const p = scores[j]! / sum;
            const vo = (start + j) * H + off;
            for (let t = 0; t < d; t++) out[oo + t]! += p * v[vo + t]!;
          }
        }
      }
      start += n;
    }
    return out;
  }
}

/**
 * y = x W^T + b for `rows` rows. W is stored [out, in] (PyTorch's Linear), so each output is the dot product of two
 * contiguous rows. Blocks of four input rows by two weight rows: each value loaded from memory serves two or four
 * products (about 1.5x the plain loop in V8 on the dev machine), and W, the large operand, is read once per four rows.
 */
export function linear(x: Float32Array, rows: number, { w, b, inDim, outDim }: Linear): Float32Array {
  const y = new Float32Array(rows * outDim);
  let r = 0;
  for (; r + 3 < rows; r += 4) {
    const x0 = r * inDim;
    const x1 = x0 + inDim;
    const x2 = x1 + inDim;
    const x3 = x2 + inDim;
    const y0 = r * outDim;
    let o = 0;
    for (; o + 1 < outDim; o += 2) {
      const wa = o * inDim;
      const wb = wa + inDim;
      let a0 = 0, a1 = 0, a2 = 0, a3 = 0, b0 = 0, b1 = 0, b2 = 0, b3 = 0;
      for (let k = 0; k < inDim; k++) {
        const u = w[wa + k]!;
        const v = w[wb + k]!;
        const p0 = x[x0 + k]!;
        const p1 = x[x1 + k]!;
        const p2 = x[x2 + k]!;
        const p3 = x[x3 + k]!;
        a0 += p0 * u;
        a1 += p1 * u;
        a2 += p2 * u;
        a3 += p3 * u;
        b0 += p0 * v;
        b1 += p1 * v;
        b2 += p2 * v;
        b3 += p3 * v;
      }
      const ba = b[o]!;
      const bb = b[o + 1]!;
      y[y0 + o] = a0 + ba;
      y[y0 + outDim + o] = a1 + ba;
      y[y0 + 2 * outDim + o] = a2 + ba;
      y[y0 + 3 * outDim + o] = a3 + ba;
      y[y0 + o + 1] = b0 + bb;
      y[y0 + outDim + o + 1] = b1 + bb;
      y[y0 + 2 * outDim + o + 1] = b2 + bb;
      y[y0 + 3 * outDim + o + 1] = b3 + bb;
    }
    // An odd output count leaves one weight row.
    for (; o < outDim; o++) for (let i = 0; i < 4; i++) y[y0 + i * outDim + o] = dot(x, x0 + i * inDim, w, o * inDim, inDim) + b[o]!;
  }
  for (; r < rows; r++) for (let o = 0; o < outDim; o++) y[r * outDim + o] = dot(x, r * inDim, w, o * inDim, inDim) + b[o]!;
  return y;
}

function dot(x: Float32Array, xo: number, w: Float32Array, wo: number, n: number): number {
  let s = 0;
  for (let k = 0; k < n; k++) s += x[xo + k]! * w[wo + k]!;
  return s;
}

/** In place, each row: (x - mean) / sqrt(var + eps) * g + b, with the biased variance (PyTorch's LayerNorm). */
function layerNorm(x: Float32Array, rows: number, H: number, { g, b }: Norm, eps: number): void {
  for (let r = 0; r < rows; r++) {
    const o = r * H;
    let mean = 0;
    for (let h = 0; h < H; h++) mean += x[o + h]!;
    mean /= H;
    let v = 0;
    for (let h = 0; h < H; h++) v += (x[o + h]! - mean) ** 2;
    const inv = 1 / Math.sqrt(v / H + eps);
    for (let h = 0; h < H; h++) x[o + h] = (x[o + h]! - mean) * inv * g[h]! + b[h]!;
  }
}

const SQRT1_2 = Math.SQRT1_2;
const TANH_C = Math.sqrt(2 / Math.PI);

function activate(x: Float32Array, act: BertConfig['hiddenAct']): void {
  if (act === 'relu') for (let i = 0; i < x.length; i++) x[i] = Math.max(0, x[i]!);
  else if (act === 'gelu') for (let i = 0; i < x.length; i++) x[i] = 0.5 * x[i]! * (1 + erf(x[i]! * SQRT1_2));
  else
    for (let i = 0; i < x.length; i++) {
      const v = x[i]!;
      x[i] = 0.5 * v * (1 + Math.tanh(TANH_C * (v + 0.044715 * v * v * v)));
    }
}

/** erf within 1.5e-7 absolute (Abramowitz & Stegun 7.1.26): JavaScript has no Math.erf, and the golden test allows 1e-4. */
export function erf(x: number): number {
  const sign = x < 0 ? -1 : 1;
  const a = Math.abs(x);
  const t = 1 / (1 + 0.3275911 * a);
  const y = 1 - ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * Math.exp(-a * a);
  return sign * y;
}
