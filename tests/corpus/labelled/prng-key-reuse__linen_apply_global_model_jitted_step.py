"""A jitted train step calls linen's `apply` with `rngs={"dropout": rng}`; the loop passes the same `rng` each
step. Needs flax."""
import flax.linen as nn
import jax
import jax.numpy as jnp


class Net(nn.Module):
    @nn.compact
    def __call__(self, x, train: bool = True):
        return nn.Dropout(0.5, deterministic=not train)(nn.Dense(16)(x))


model = Net()
x = jnp.ones((2, 4))
variables = model.init(jax.random.PRNGKey(1), x, train=False)


@jax.jit
def train_step(variables, x, rng):
    return model.apply(variables, x, rngs={"dropout": rng})


dropout_rng = jax.random.PRNGKey(2)
outs = []
for i in range(3):
    outs.append(train_step(variables, x, dropout_rng))  # expect: prng-key-reuse
if all(bool(jnp.array_equal(o, outs[0])) for o in outs):
    print("SHARP BIT: one mask for 3 steps")
