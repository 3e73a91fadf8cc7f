"""The bug twin of clean__key_used_only_without_a_given_net_through_a_wrapper.py: the caller leaves the network
out, so the transform builds its default network from the key already drawn from, and its weights equal the
first network's.
"""
import jax
import jax.numpy as jnp


class Net:
    def __init__(self, dim, key):
        self.w = jax.random.normal(key, (dim, dim))


class Transform:
    def __init__(self, dim, net=None, *, key):
        if net is None:
            net = Net(dim, key=key)
        self.net = net


class Flow:
    def __init__(self, dim, net=None, *, key):
        self.transform = Transform(dim, net=net, key=key)


def build(dim, seed):
    key = jax.random.PRNGKey(seed)
    net = Net(dim, key=key)
    flow = Flow(dim, key=key)  # expect: prng-key-reuse
    return net, flow


if __name__ == "__main__":
    net, flow = build(3, 0)
    print("SHARP BIT: same weights:", bool(jnp.allclose(flow.transform.net.w, net.w)))
