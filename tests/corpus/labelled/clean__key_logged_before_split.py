"""A trainer logs its root key before splitting it (lingvo's `logging.info('root prng_key: %s', prng_key)`, here
through the standard library's logger and `logging.warning`): formatting a key into a log record draws nothing
from it, so the split after it is the key's first use."""
import logging

import jax

log = logging.getLogger(__name__)


def train(seed):
    prng_key = jax.random.PRNGKey(seed)
    log.info("root prng_key: %s", prng_key)
    logging.warning("seed %d gives key %s", seed, prng_key)
    prng_key, train_key, eval_key = jax.random.split(prng_key, 3)
    log.info("train prng_key: %s", train_key)
    return jax.random.normal(train_key, (2,)), jax.random.normal(eval_key, (2,)), prng_key


if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO)
    print(train(0))
