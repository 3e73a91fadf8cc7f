"""`super().__init__(key, n)` of a base class whose constructor only stores the key on `self`, which no method of
the class or its subclasses reads (round 36's np-family): nothing is drawn there, so the subclass's split of the
key is its first use.
"""
import jax


class Base:
    def __init__(self, key, n):
        self.key = key
        self.n = n


class Dataset(Base):
    def __init__(self, key, n):
        super().__init__(key, n)
        key, *keys = jax.random.split(key, 4)
        self.chunks = [jax.random.normal(k, (n,)) for k in keys]


if __name__ == "__main__":
    print(len(Dataset(jax.random.PRNGKey(0), 3).chunks), "independent chunks")
