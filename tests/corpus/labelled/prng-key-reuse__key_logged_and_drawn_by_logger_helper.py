"""The bug twin: a helper whose name starts like a logging call (`log_sample`) draws a sample from the key to log
it, and the key is then split: the split keys come from the bits that gave the logged sample."""
import jax


def log_sample(key):
    sample = jax.random.normal(key, (2,))
    print("sample", sample)
    return sample


def train(seed):
    prng_key = jax.random.PRNGKey(seed)
    log_sample(prng_key)
    prng_key, train_key = jax.random.split(prng_key)  # expect: prng-key-reuse
    return jax.random.normal(train_key, (2,)), prng_key


if __name__ == "__main__":
    print(train(0))
