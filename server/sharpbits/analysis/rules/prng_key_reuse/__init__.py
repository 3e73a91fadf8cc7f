"""SB201 prng-key-reuse: the rule (rule.py) and the analysis only it needs, the key flow (key_flow.py: where each
PRNG key is consumed, and consumed again), built on demand as `model.fact(KeyFlow)`."""

from sharpbits.analysis.rules.prng_key_reuse.rule import PrngKeyReuse

__all__ = ["PrngKeyReuse"]
