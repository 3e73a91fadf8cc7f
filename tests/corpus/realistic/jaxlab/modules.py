"""A Flax-style module system in ~200 lines, without Flax.

Modules are plain Python objects holding hyper-parameters; parameters live in nested dicts created by
`init` and passed to `apply`. A `Scope` hands out parameters by name and derives fresh keys for each
request from a base key and a counter (`fold_in`), so no key is ever used twice.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import jax
import jax.numpy as jnp

from jaxlab.nn import initializers, layers


class Scope:
    def __init__(self, params: dict[str, Any] | None, rngs: dict[str, jax.Array] | None, initializing: bool,
                 path: tuple[str, ...] = ()) -> None:
        self.params = params if params is not None else {}
        self.rngs = rngs or {}
        self.initializing = initializing
        self.path = path
        self._rng_counters: dict[str, int] = {}
        self._child_counts: dict[str, int] = {}

    def child(self, name: str) -> Scope:
        if self.initializing:
            sub = self.params.setdefault(name, {})
        else:
            sub = self.params[name]
        rngs = {stream: jax.random.fold_in(key, _stable_hash(name)) for stream, key in self.rngs.items()}
        return Scope(sub, rngs, self.initializing, self.path + (name,))

    def auto_name(self, prefix: str) -> str:
        count = self._child_counts.get(prefix, 0)
        self._child_counts[prefix] = count + 1
        return f"{prefix}_{count}"

    def make_rng(self, stream: str) -> jax.Array:
        if stream not in self.rngs:
            raise KeyError(f"{'/'.join(self.path) or '<root>'}: no '{stream}' key was passed")
        count = self._rng_counters.get(stream, 0)
        self._rng_counters[stream] = count + 1
        return jax.random.fold_in(self.rngs[stream], count)

    def param(self, name: str, init_fn: Callable, shape: tuple[int, ...]) -> jax.Array:
        if self.initializing and name not in self.params:
            self.params[name] = init_fn(self.make_rng("params"), shape)
        return self.params[name]


def _stable_hash(name: str) -> int:
    h = 0
    for ch in name:
        h = (h * 131 + ord(ch)) % (2 ** 31 - 1)
    return h


class Module:
    """Subclasses implement `__call__(self, scope, *args, **kwargs)`."""

    def init(self, key: jax.Array, *args, **kwargs) -> dict[str, Any]:
        params: dict[str, Any] = {}
        params_key, dropout_key = jax.random.split(key)
        scope = Scope(params, {"params": params_key, "dropout": dropout_key}, initializing=True)
        self(scope, *args, **kwargs)
        return params

    def apply(self, params: dict[str, Any], *args, rngs: dict[str, jax.Array] | None = None, **kwargs):
        return self(Scope(params, rngs, initializing=False), *args, **kwargs)

    def __call__(self, scope: Scope, *args, **kwargs):
        raise NotImplementedError


class Dense(Module):
    def __init__(self, features: int, use_bias: bool = True, kernel_init=initializers.lecun_normal) -> None:
        self.features, self.use_bias, self.kernel_init = features, use_bias, kernel_init

    def __call__(self, scope: Scope, x):
        kernel = scope.param("kernel", self.kernel_init, (x.shape[-1], self.features))
        y = x @ kernel
        if self.use_bias:
            y = y + scope.param("bias", initializers.zeros, (self.features,))
        return y


class LayerNorm(Module):
    def __call__(self, scope: Scope, x):
        scale = scope.param("scale", initializers.ones, (x.shape[-1],))
        bias = scope.param("bias", initializers.zeros, (x.shape[-1],))
        return layers.layernorm({"scale": scale, "bias": bias}, x)


class Dropout(Module):
    def __init__(self, rate: float) -> None:
        self.rate = rate

    def __call__(self, scope: Scope, x, deterministic: bool = True):
        if deterministic or self.rate == 0.0:
            return x
        return layers.dropout(scope.make_rng("dropout"), x, self.rate, training=True)


class Sequential(Module):
    def __init__(self, modules: Sequence[Module]) -> None:
        self.modules = list(modules)

    def __call__(self, scope: Scope, x, deterministic: bool = True):
        for i, module in enumerate(self.modules):
            sub = scope.child(f"layers_{i}")
            if isinstance(module, Dropout | Sequential | Residual):
                x = module(sub, x, deterministic=deterministic)
            elif isinstance(module, Activation):
                x = module(sub, x)
            else:
                x = module(sub, x)
        return x


class Activation(Module):
    def __init__(self, name: str) -> None:
        self.fn = layers.ACTIVATIONS[name]

    def __call__(self, scope: Scope, x):
        return self.fn(x)


class Residual(Module):
    def __init__(self, inner: Module) -> None:
        self.inner = inner

    def __call__(self, scope: Scope, x, deterministic: bool = True):
        return x + self.inner(scope.child("inner"), x, deterministic=deterministic)


class Embed(Module):
    def __init__(self, vocab: int, features: int) -> None:
        self.vocab, self.features = vocab, features

    def __call__(self, scope: Scope, ids):
        table = scope.param("embedding", initializers.normal(0.02), (self.vocab, self.features))
        return jnp.take(table, ids, axis=0)


def mlp(widths: Sequence[int], activation: str = "gelu", dropout: float = 0.0) -> Sequential:
    mods: list[Module] = []
    for i, width in enumerate(widths):
        mods.append(Dense(width))
        if i < len(widths) - 1:
            mods.append(Activation(activation))
            if dropout:
                mods.append(Dropout(dropout))
    return Sequential(mods)


def residual_mlp(width: int, depth: int, out: int, dropout: float = 0.1) -> Sequential:
    blocks: list[Module] = [Dense(width)]
    for _ in range(depth):
        blocks.append(Residual(Sequential([LayerNorm(), Dense(width), Activation("gelu"), Dropout(dropout)])))
    blocks.append(Dense(out))
    return Sequential(blocks)


def make_train_step(model: Module, learning_rate: float):
    """A jitted SGD step for any Module; dropout keys come from `fold_in(key, step)`."""

    def loss_fn(params, x, y, key):
        logits = model.apply(params, x, rngs={"dropout": key}, deterministic=False)
        return -jnp.mean(jnp.sum(jax.nn.one_hot(y, logits.shape[-1]) * jax.nn.log_softmax(logits), axis=-1))

    @jax.jit
    def step(params, x, y, base_key, step_index):
        key = jax.random.fold_in(base_key, step_index)
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y, key)
        params = jax.tree_util.tree_map(lambda p, g: p - learning_rate * g, params, grads)
        return params, loss

    return step


def demo(steps: int = 5, seed: int = 0) -> list[float]:
    model = residual_mlp(width=16, depth=2, out=3)
    root = jax.random.key(seed)
    init_key, data_key, dropout_key = jax.random.split(root, 3)
    x_key, y_key = jax.random.split(data_key)
    x = jax.random.normal(x_key, (32, 8))
    y = jax.random.randint(y_key, (32,), 0, 3)
    params = model.init(init_key, x)
    step = make_train_step(model, learning_rate=0.1)
    history = []
    for i in range(steps):
        params, loss = step(params, x, y, dropout_key, i)
        history.append(float(loss))
    return history
