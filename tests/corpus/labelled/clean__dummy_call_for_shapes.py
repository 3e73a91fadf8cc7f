"""A search policy in the mctx style: the recurrent function is run once on a dummy action to learn the shape
of its output (the results are named dummy and only their shapes are read), then the key draws the action.
"""
import jax
import jax.numpy as jnp


def recurrent_fn(params, key, action, embedding):
    logits = embedding @ params + jax.random.normal(key, (embedding.shape[0], params.shape[1])) * 0.01
    return logits, embedding + action[:, None]


def policy(params, key, embedding):
    dummy_action = jnp.zeros(embedding.shape[0], dtype=jnp.int32)
    dummy_logits, dummy_embedding = recurrent_fn(params, key, dummy_action, embedding)
    num_outcomes = dummy_logits.shape[-1]
    logits = jnp.zeros((embedding.shape[0], num_outcomes))
    return jax.random.categorical(key, logits)


if __name__ == "__main__":
    print(policy(jnp.ones((3, 4)), jax.random.PRNGKey(0), jnp.ones((2, 3))))
