"""A Haiku network with dropout under `if is_training:` (default True): evaluation passes `is_training=False`
(nothing drawn, one rng is fine) and training gets a fresh rng per step from `hk.PRNGSequence`."""
import haiku as hk
import jax
import jax.numpy as jnp


def forward(x, is_training=True):
    h = jax.nn.relu(hk.Linear(16)(x))
    if is_training:
        h = hk.dropout(hk.next_rng_key(), 0.5, h)
    return hk.Linear(1)(h)


net = hk.transform(forward)


def run(params, x, steps=3):
    apply = jax.jit(net.apply, static_argnames="is_training")
    eval_rng = jax.random.PRNGKey(1)
    evals = [apply(params, eval_rng, x, is_training=False) for _ in range(steps)]
    seq = hk.PRNGSequence(2)
    train = [apply(params, next(seq), x) for _ in range(steps)]
    return evals, train


if __name__ == "__main__":
    x = jnp.ones((2, 4))
    params = net.init(jax.random.PRNGKey(0), x)
    evals, train = run(params, x)
    print(len({tuple(t.ravel().tolist()) for t in train}), "different training outputs")
