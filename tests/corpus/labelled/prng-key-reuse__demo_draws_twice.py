"""The twin of clean__demo_stops_at_exit: without the `exit()`, the second draw reads the same key and its
numbers are a function of the first's.
"""
import jax


def demo():
    key = jax.random.PRNGKey(0)
    a = jax.random.normal(key, (3,))
    b = jax.random.uniform(key, (3,))  # expect: prng-key-reuse
    return a, b


if __name__ == "__main__":
    a, b = demo()
    if bool((jax.scipy.stats.norm.cdf(a) == b).all()):
        print("SHARP BIT: uniform(key) is exactly norm.cdf(normal(key)): the two draws are one")
    else:
        print("SHARP BIT: both draws read the same bits", a, b)
