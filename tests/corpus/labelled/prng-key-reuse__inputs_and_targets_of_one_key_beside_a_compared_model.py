"""neojax-operators tests/training/test_trainer.py: the model, the inputs and the targets are all drawn from one
key, and an assertion compares two losses that each read the model and the batch. The two draws of the batch
meet in `batch = (x, y)`: the targets are the inputs' first ten values (same key, same sampler, prefix shapes;
checked below), whatever the assertion compares. (The model's weights are x's first two values too; that pair is
not reported here, the assertion reading both is taken as a comparison of them: a known miss, not labelled.)
"""
import jax
import jax.numpy as jnp


def init_model(key, n_in, n_out):
    return {"w": jax.random.normal(key, (n_in, n_out))}


def loss_fn(model, batch):
    x, y = batch
    return jnp.mean((x @ model["w"] - y) ** 2)


def test_train_step():
    key = jax.random.PRNGKey(0)
    model = init_model(key, 2, 1)
    x = jax.random.normal(key, (10, 2))
    y = jax.random.normal(key, (10, 1))  # expect: prng-key-reuse
    batch = (x, y)
    eval_loss = jax.jit(loss_fn)(model, batch)
    assert jnp.allclose(eval_loss, loss_fn(model, batch))
    return x, y


if __name__ == "__main__":
    x, y = test_train_step()
    print("SHARP BIT: the targets are the inputs' first ten values:", bool(jnp.array_equal(x.ravel()[:10], y.ravel())))
