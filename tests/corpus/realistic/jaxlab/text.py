"""Character-level text handling for the toy language-model experiments: vocabulary building (plain Python),
encoding and batching (NumPy, in place), and a jitted per-head attention probe over a static head count.
"""

from __future__ import annotations

from collections import Counter
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np

SPECIALS = ("<pad>", "<bos>", "<eos>", "<unk>")
PAD, BOS, EOS, UNK = range(len(SPECIALS))


class CharVocab:
    def __init__(self, texts: list[str], min_count: int = 1, max_size: int | None = None) -> None:
        counts = Counter(ch for text in texts for ch in text)
        chars = [ch for ch, n in counts.most_common(max_size) if n >= min_count]
        self.itos = list(SPECIALS) + sorted(chars)
        self.stoi: dict[str, int] = {}
        for i, token in enumerate(self.itos):
            self.stoi[token] = i

    def __len__(self) -> int:
        return len(self.itos)

    def encode(self, text: str, add_bos: bool = True, add_eos: bool = True) -> list[int]:
        ids = [self.stoi.get(ch, UNK) for ch in text]
        if add_bos:
            ids.insert(0, BOS)
        if add_eos:
            ids.append(EOS)
        return ids

    def decode(self, ids) -> str:
        out = []
        for i in ids:
            i = int(i)
            if i == EOS:
                break
            if i >= len(SPECIALS):
                out.append(self.itos[i])
        return "".join(out)


def pack(sequences: list[list[int]], length: int) -> tuple[np.ndarray, np.ndarray]:
    """Pads/truncates to a fixed length; returns (tokens, mask) as NumPy arrays, filled in place."""
    tokens = np.full((len(sequences), length), PAD, dtype=np.int32)
    mask = np.zeros((len(sequences), length), dtype=np.float32)
    for row, seq in enumerate(sequences):
        seq = seq[:length]
        tokens[row, : len(seq)] = seq
        mask[row, : len(seq)] = 1.0
    return tokens, mask


def lm_targets(tokens: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    inputs = tokens[:, :-1].copy()
    targets = tokens[:, 1:].copy()
    target_mask = mask[:, 1:].copy()
    target_mask[targets == PAD] = 0.0
    return inputs, targets, target_mask


def corpus_statistics(texts: list[str]) -> dict[str, float]:
    lengths = np.array([len(t) for t in texts], dtype=np.float64)
    long_texts = lengths[lengths > np.median(lengths)]
    return {
        "num_texts": float(len(texts)),
        "mean_length": float(lengths.mean()) if len(lengths) else 0.0,
        "long_fraction": float(len(long_texts) / max(len(lengths), 1)),
    }


@partial(jax.jit, static_argnames=("num_heads",))
def per_head_entropy(q, k, num_heads: int):
    """Attention entropy of each head; `num_heads` is a small static int, so the head loop is unrolled."""
    d = q.shape[-1] // num_heads
    entropies = []
    for h in range(num_heads):
        qh = q[..., h * d:(h + 1) * d]
        kh = k[..., h * d:(h + 1) * d]
        w = jax.nn.softmax(qh @ jnp.swapaxes(kh, -1, -2) / jnp.sqrt(d), axis=-1)
        entropies.append(-jnp.sum(w * jnp.log(w + 1e-9), axis=-1).mean())
    return jnp.stack(entropies)


def demo() -> dict[str, object]:
    texts = ["hello world", "jax is fun", "immutable arrays", "split your keys"]
    vocab = CharVocab(texts)
    tokens, mask = pack([vocab.encode(t) for t in texts], 16)
    inputs, targets, target_mask = lm_targets(tokens, mask)
    x = jax.random.normal(jax.random.key(0), (2, 6, 8))
    return {
        "vocab": len(vocab),
        "roundtrip": vocab.decode(vocab.encode(texts[0])[1:]),
        "targets": int(target_mask.sum()),
        "entropy": np.asarray(per_head_entropy(x, x, 2)).round(3).tolist(),
        "stats": corpus_statistics(texts),
    }
