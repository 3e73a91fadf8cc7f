"""The bug twin of clean__base_constructor_only_stores_the_key.py: the base constructor draws an offset from the
key, and the subclass draws its noise from the same key: the very same numbers.
"""
import jax


class Base:
    def __init__(self, key, n):
        self.offset = jax.random.normal(key, (n,))
        self.n = n


class Dataset(Base):
    def __init__(self, key, n):
        super().__init__(key, n)
        self.noise = jax.random.normal(key, (n,))  # expect: prng-key-reuse


if __name__ == "__main__":
    d = Dataset(jax.random.PRNGKey(0), 3)
    print("SHARP BIT: same numbers:", bool((d.offset == d.noise).all()))
