// npm run bench:local-embedding [-- <folder>]: how long the local embedding model (src/core/llm/localEmbedding/)
// takes per sentence on LLaMAR's admissible actions of a kitchen with 20 seen objects (about 100 texts), after one
// warm-up pass, without the per-text cache. Default folder: the tiny fixture; for a model of all-MiniLM-L6-v2's
// shape, build a random one with `scripts/make-tiny-sbert.py --minilm-shaped /tmp/m` and pass /tmp/m. One line.
import { join } from 'node:path';
import { admissibleActions } from '../../src/architectures/llamar/actionMatcher.js';
import { loadSentenceModel } from '../../src/core/llm/localEmbedding/model.js';

const dir = process.argv[2] ?? join(process.cwd(), 'test', 'fixtures', 'tiny-sbert');
const seen = ['Fridge', 'Apple', 'Tomato', 'Bread', 'Lettuce', 'CounterTop', 'Sink', 'Cabinet', 'Drawer', 'Microwave', 'Plate', 'Bowl', 'Mug', 'Pot', 'Pan', 'Toaster', 'StoveBurner', 'Faucet', 'GarbageCan', 'DiningTable'].map((t) => `${t}_1`);
const texts = admissibleActions(seen, { explore: true, exploreArgs: [2, 4] }).map((a) => a.text);
const loadStart = performance.now();
const model = loadSentenceModel(dir);
const loadMs = performance.now() - loadStart;
model.embed(texts);
const tokens = texts.reduce((n, t) => n + model.tokenize(t).length, 0);
const t0 = performance.now();
for (let i = 0; i < texts.length; i += 32) model.embed(texts.slice(i, i + 32));
const ms = performance.now() - t0;
console.log(`local embedding ${dir}: ${(ms / texts.length).toFixed(2)} ms per sentence (${texts.length} admissible actions, ${(tokens / texts.length).toFixed(1)} tokens each, batches of 32, ${model.dimensions} dims), load ${loadMs.toFixed(0)} ms`);
