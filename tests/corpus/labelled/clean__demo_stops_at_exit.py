"""A demo script that stops with `exit()` after its first draw; the lines after it, which would draw from the
same key again, never run (round 38: an active-inference toolbox's `__main__` block).
"""
import jax


def demo():
    key = jax.random.PRNGKey(0)
    a = jax.random.normal(key, (3,))
    print(a)
    exit()
    b = jax.random.uniform(key, (3,))
    print(b)


if __name__ == "__main__":
    demo()
