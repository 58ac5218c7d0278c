#!/usr/bin/env python3
"""Builds test/fixtures/tiny-sbert/: a tiny RANDOM BERT sentence-transformers model (not a trained one) and the
golden token ids and embeddings sentence-transformers computes for it, which the TypeScript local embedding model
(src/core/llm/localEmbedding/) must reproduce.

Run by hand, never by CI (CI has no Python and no torch):
    python3 -m venv /tmp/sbert-venv
    /tmp/sbert-venv/bin/pip install torch transformers sentence-transformers safetensors
    /tmp/sbert-venv/bin/python scripts/make-tiny-sbert.py                          # the fixture
    /tmp/sbert-venv/bin/python scripts/make-tiny-sbert.py --minilm-shaped /tmp/m   # a random all-MiniLM-L6-v2-shaped
                                                                                   # model, to measure speed

The vocabulary covers the words of LLaMAR's admissible actions and the everyday names models write, single
letters and digits with their ##-continuations (so every ASCII word has a WordPiece split), and a few
##-suffixes. Nothing is downloaded.
"""
import argparse
import json
import os
import shutil
import sys
import tempfile

import torch
from sentence_transformers import SentenceTransformer, models
from tokenizers import Tokenizer, normalizers, pre_tokenizers, processors
from tokenizers.models import WordPiece
from transformers import BertConfig, BertModel, PreTrainedTokenizerFast

WORDS = """
navigate to object open close pick up put on slice clean toggle off move ahead back left right rotate look down by
angle explore stay idle done the a an in into direction fridge refrigerator apple tomato bread lettuce potato egg
counter top countertop sink cabinet drawer microwave toaster coffee machine plate bowl mug cup pot pan laptop
computer sofa couch television tv stand table dining garbage can faucet stove burner knob light switch floor lamp
desk shelf dresser bed toilet bathtub towel holder box dish go walk grab take place set wash cut and then it please
""".split()
SUFFIXES = ['##s', '##es', '##ed', '##ing', '##er', '##top', '##ly']
SPECIALS = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]']
PUNCT = list('!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~')
LETTERS = [chr(c) for c in range(ord('a'), ord('z') + 1)] + [str(d) for d in range(10)]

SENTENCES = [
    'navigate to object Fridge_1',
    'open the refrigerator',
    'Pick up the apple and put it on the CounterTop_1!',
    'put object on Sink_1',
    'toggle object Television_1 on',
    'clean the dish object',
    'Café naïve résumé: déjà vu',                      # accents (stripped, as lower-case BERT does)
    'grab the λ-shaped zorblax',                        # a character outside the vocabulary: [UNK]
    'go to the TV, then (maybe) wash   the\tmug...',    # punctuation and odd whitespace
    'explore the kitchen and look down by angle 30 then rotate in Right direction and move in Ahead direction twice',
    'done',
]


def vocab(extra: int = 0) -> dict:
    toks = []
    for t in SPECIALS + PUNCT + LETTERS + ['##' + c for c in LETTERS] + SUFFIXES + WORDS:
        if t not in toks:  # ids stay dense: a repeated token would leave a hole and an id past vocab_size
            toks.append(t)
    toks += [f'[unused{i}]' for i in range(extra)]
    return {t: i for i, t in enumerate(toks)}


def build(out: str, *, hidden: int, layers: int, heads: int, intermediate: int, vocab_size: int, max_seq: int, std: float, seed: int) -> SentenceTransformer:
    torch.manual_seed(seed)
    v = vocab(max(0, vocab_size - len(vocab())))
    tok = Tokenizer(WordPiece(v, unk_token='[UNK]', max_input_chars_per_word=100))
    tok.normalizer = normalizers.BertNormalizer(clean_text=True, handle_chinese_chars=True, strip_accents=None, lowercase=True)
    tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    tok.post_processor = processors.TemplateProcessing(
        single='[CLS] $A [SEP]', pair='[CLS] $A [SEP] $B:1 [SEP]:1', special_tokens=[('[CLS]', v['[CLS]']), ('[SEP]', v['[SEP]'])])
    fast = PreTrainedTokenizerFast(tokenizer_object=tok, unk_token='[UNK]', pad_token='[PAD]', cls_token='[CLS]', sep_token='[SEP]', mask_token='[MASK]', model_max_length=max_seq)
    config = BertConfig(vocab_size=len(v), hidden_size=hidden, num_hidden_layers=layers, num_attention_heads=heads, intermediate_size=intermediate,
                        max_position_embeddings=max(64, max_seq), type_vocab_size=2, hidden_act='gelu', layer_norm_eps=1e-12, initializer_range=std)
    bert = BertModel(config, add_pooling_layer=False)
    with torch.no_grad():
        # Random LayerNorm scales and shifts too, so a reader that mixes them up fails the golden comparison.
        for name, p in bert.named_parameters():
            if 'LayerNorm' in name:
                p.copy_((1.0 if name.endswith('weight') else 0.0) + 0.3 * torch.randn_like(p))
            elif name.endswith('bias'):
                p.copy_(0.1 * torch.randn_like(p))
    with tempfile.TemporaryDirectory() as hf:
        bert.save_pretrained(hf, safe_serialization=True)
        fast.save_pretrained(hf)
        transformer = models.Transformer(hf, max_seq_length=max_seq)
        pooling = models.Pooling(transformer.get_word_embedding_dimension(), pooling_mode='mean')
        st = SentenceTransformer(modules=[transformer, pooling, models.Normalize()], device='cpu')
        if os.path.isdir(out):
            shutil.rmtree(out)
        st.save(out)
    # Drop what the TypeScript reader does not read and the fixture does not need (a README with a model card).
    for extra in ('README.md',):
        p = os.path.join(out, extra)
        if os.path.exists(p):
            os.remove(p)
    return SentenceTransformer(out, device='cpu')


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument('--out', default=os.path.join(os.path.dirname(__file__), '..', 'test', 'fixtures', 'tiny-sbert'))
    ap.add_argument('--minilm-shaped', metavar='DIR', help='build a random model of all-MiniLM-L6-v2 shape there instead')
    a = ap.parse_args()
    if a.minilm_shaped:
        st = build(a.minilm_shaped, hidden=384, layers=6, heads=12, intermediate=1536, vocab_size=30522, max_seq=256, std=0.05, seed=7)
        golden_path = os.path.join(a.minilm_shaped, 'golden.json')
    else:
        st = build(a.out, hidden=32, layers=2, heads=4, intermediate=64, vocab_size=0, max_seq=16, std=0.2, seed=28)
        golden_path = os.path.join(a.out, '..', 'tiny-sbert-golden.json')
    ids = [st.tokenize([s])['input_ids'][0].tolist() for s in SENTENCES]
    # Batched as sentence-transformers batches (padding + attention mask), so padding must not change a vector.
    vecs = st.encode(SENTENCES, batch_size=4, convert_to_numpy=True)
    golden = {
        'generator': 'scripts/make-tiny-sbert.py (sentence-transformers %s, torch %s)' % (__import__('sentence_transformers').__version__, torch.__version__),
        'maxSeqLength': st.max_seq_length,
        'sentences': [{'text': s, 'inputIds': i, 'embedding': [round(float(x), 7) for x in v]} for s, i, v in zip(SENTENCES, ids, vecs)],
    }
    with open(golden_path, 'w') as f:
        json.dump(golden, f, indent=1, ensure_ascii=False)
        f.write('\n')
    print(f'wrote {golden_path}', file=sys.stderr)


if __name__ == '__main__':
    main()
