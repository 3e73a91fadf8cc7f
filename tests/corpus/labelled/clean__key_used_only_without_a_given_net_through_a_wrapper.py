"""A flow whose transform builds a default network from the key only when no network is given, reached through a
wrapper that hands `net` on unchanged (round 35b's generax: `ContinuousNormalizingFlow(net=net, key=key)` calls
`FFJORDTransform(net=net, key=key)`, which builds `TimeDependentResNet(key=key)` only `if net is None`). The caller
gives the network it built from the key, so the key is drawn from once: the flow's network is that one.
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
    flow = Flow(dim, net=net, key=key)
    return net, flow


if __name__ == "__main__":
    net, flow = build(3, 0)
    print("the given network:", flow.transform.net is net, jnp.sum(net.w))
