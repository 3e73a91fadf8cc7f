"""Uses that draw nothing: a tracker that only stores the key on `self` (never read) and a logger that only
formats it. Neither consumes the key, so the draw after them is its first use.
"""
import logging

import jax


class RunInfo:
    def __init__(self, key, name):
        self.key = key
        self.name = name

    def describe(self):
        return self.name


def log_key(key):
    logging.info("seed key %s", key)


def evaluate(key, name):
    info = RunInfo(key, name)
    log_key(key)
    noise = jax.random.normal(key, (3,))
    return info.describe(), noise


if __name__ == "__main__":
    print(evaluate(jax.random.PRNGKey(0), "run"))
