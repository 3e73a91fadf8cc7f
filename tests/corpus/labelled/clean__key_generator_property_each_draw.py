"""A key generator whose `next` property splits the key it keeps; a loop draws from a fresh key each time."""
import jax


class Keys:
    def __init__(self, seed: int):
        self._key = jax.random.PRNGKey(seed)

    @property
    def next(self):
        self._key, sub = jax.random.split(self._key)
        return sub


def draws(n: int):
    keys = Keys(0)
    return [jax.random.normal(keys.next, ()) for _ in range(n)]


if __name__ == "__main__":
    print(draws(3))
