"""Model zoo: each model module exposes `init(key, cfg, sample_input)` and
`apply(params, state, x, key, cfg, training) -> (logits, new_state)`. `cfg` is a frozen, hashable
ModelConfig, passed as a static argument wherever the model is jitted.
"""

from __future__ import annotations

from jaxlab.models import cnn, mlp, rnn, transformer

REGISTRY = {
    "mlp": mlp,
    "cnn": cnn,
    "transformer": transformer,
    "rnn": rnn,
}


def get(kind: str):
    try:
        return REGISTRY[kind]
    except KeyError:
        raise ValueError(f"unknown model kind {kind!r}; choose from {sorted(REGISTRY)}") from None
