"""A wrapper that derives its own streams with `fold_in(key, STREAM)` and hands the root key, untouched, to the
environment it wraps, whatever that does with it (round 36's plasmax: "the physical environment sees exactly the
same key whether this sensor wrapper is present"): a stream constant like 0x4E4F4953 is far past any split count
or draw index, so the streams share no bits with what the environment draws.
"""
import jax

_NOISE_SAMPLE_STREAM = 0x4E4F4953


class Env:
    def init(self, key):
        return jax.random.normal(key, (3,))


class NoisyObs:
    def __init__(self, env):
        self.env = env

    def init(self, key):
        noise_key = jax.random.fold_in(key, _NOISE_SAMPLE_STREAM)
        obs = self.env.init(key)
        return obs + 0.01 * jax.random.normal(noise_key, obs.shape)


if __name__ == "__main__":
    key = jax.random.key(0)
    print("with the wrapper:", NoisyObs(Env()).init(key), "without:", Env().init(key))
