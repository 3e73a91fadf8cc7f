"""SB201 prng-key-reuse: a PRNG key consumed twice. The consumption model lives beside it, in key_flow.py."""

from __future__ import annotations

import ast

from sharpbits.analysis.rules.base import Invalid, Rule, RuleContext
from sharpbits.analysis.rules.prng_key_reuse.key_flow import KeyFlow, KeyReuse, KeyUse
from sharpbits.analysis.rules.prng_key_reuse.stale_attribute import StaleDraw, stale_attribute_draws
from sharpbits.findings import Fix, TextEdit


class PrngKeyReuse(Rule):
    code = "SB201"
    name = "prng-key-reuse"
    severity = "warning"
    messages = {
        "comprehension": "PRNG key `{key}` is used in every iteration of this comprehension: each draws the same "
                         "numbers; split it first (`jax.random.split({key}, n)`)",
        "closure": "PRNG key `{key}` is closed over and used in {transform}: every element or iteration draws "
                   "the same numbers; pass split keys in",
        "decorator": "PRNG key `{key}` is made once and `@{decorator}` hands it to `{function}` on every call: "
                     "every call draws the same numbers; split a new key per call (or pass keys in)",
        "unmapped": "PRNG key `{key}` is passed unmapped (`in_axes` None) to `{transform}`, whose function draws "
                    "from it: every element draws the same numbers; map split keys instead "
                    "(`jax.random.split({key}, n)` at in_axes 0)",
        "loop": "{keys} {are} reused by `{first_call}(...)` in every iteration: each iteration gets the same "
                "numbers; split it in the loop",
        "again": "{keys} {were} already {used} at line {first_line} by `{first_call}(...)`: {what}; split {each} "
                 "first",
        "carry": "PRNG key `{key}` is read from the carry of {loop}, consumed here, and handed back unchanged: every "
                 "iteration draws the same numbers; put the split key back in the carry",
        "returned": "PRNG key `{key}` was {used} at line {first_line} by `{first_call}(...)` and is returned as the "
                    "next key: whatever the caller draws from it next is made from the same bits (repeated or "
                    "correlated numbers); split it and return the half you did not draw from",
        "init": "PRNG key `{key}` was {used} in `__init__` at line {first_line} by `{first_call}(...)` and left in "
                "place: `{method}` consumes it again, so its first call after construction draws {what}; store "
                "the half you did not use back (`{key}, sub = jax.random.split({key})`)",
        "seed_body": "PRNG key `{key}` is made from a fixed seed inside {body}, which runs once per {unit}: every "
                     "{unit} draws the same numbers; pass a key in and split it per {unit} (or `fold_in` the index)",
        "stale": "PRNG key `{key}` is stored once, in `__init__`, and nothing advances it: every call of `{method}` "
                 "draws the same numbers, and it is called again and again (line {line}); split it on each call "
                 "(`{key}, sub = jax.random.split({key})`) and draw from `sub`",
        "seed": "PRNG key `{key}` is made from the same seed as the key {used} at line {first_line} by "
                "`{first_call}(...)`: one seed gives one key, so {what}; make the key once and split it",
    }
    summary = "Flags a JAX PRNG key that is consumed twice (two samplers, after `split`, in a loop, after a call)."
    why = """
JAX's random numbers are a pure function of the key: the same key gives the same numbers. Drawing twice from one
key — two samplers, a sampler after `split(key)`, a sampler in a loop whose key is not re-derived, or a key passed
to a function (which may draw from it) and then used again — silently gives identical or correlated "random"
numbers: dropout masks that repeat, initialisations that are copies of each other.

A key is consumed by a sampler, by `split`, and by any function it is handed to (`init(key)`, `Linear(..., key=k)`),
which may draw from it or split it; calls that only ask about it (`assert is_prng_key(key)`, shape or dtype
queries, printing) do not count. `fold_in(key, i)` derives a key: several with distinct data are fine (two with the same key and data, no name they
read rebound in the scope, are one key under two names), but under
JAX's default threefry `fold_in(k, i)` equals `split(k, n)[i]`, so folding in after a split (or splitting after a
fold) repeats keys. `split(key)[1]` and a later `split(key)[0]` are the two keys of one split (the split is
computed again, another element taken), not a reuse. Keys stored in attributes and dict entries (`self.rng`,
`rngs["dropout"]`) are followed too, and so are keys a `lax.scan`/`fori_loop` or `vmap` body closes over and
consumes (the same numbers every iteration or element), and so are keys a function that `jax.tree.map` calls once
per leaf closes over (`jax.tree.map(lambda p: p + normal(key, p.shape), params)`: leaves of one shape get the same
noise), traced or not; one `permutation`/`choice` for every leaf is a joint shuffle that keeps rows aligned, not a
reuse. A function decorated by a decorator of this module whose wrapper does not hand its own arguments on
unchanged (`fn(key, *args)`) is called through that wrapper: the call's arguments are not the function's; when the
key it hands on is made once (`key = jax.random.key(seed)` in the decorator, its factory or the module) and the
function draws from it on every path, every call of a function the module calls more than once draws the same
numbers, reported at the wrapper's call. An object that keeps the key it was built with (`self.key = key` in
`__init__`, never stored again) and draws from it in a method draws the same numbers at every call: reported in the
method when the module calls it again and again, and at the second call on one object (`sampler.draw(4)` twice) when
the method's name is ambiguous in the module or the class lives in another module of the project. A
registry decorator that hands the function back (`@register`, `@init_fn_for(Config)`, in this module or another)
leaves it as written, so what it does with its key is known. `jax.random.split(key, n)[i]` is `fold_in(key, i)`:
deriving keys both ways from one key gives the same keys.

A key is also reused across calls when a function draws from it and hands it back as the next key (`return x, key`
with the `key` it was given, or `return x, state.replace(key=key)`): whatever the caller draws from the returned
key next is made from the same bits. Split first and return the half nothing drew from. (A key handed back that
every caller in the module throws away, `loss, _ = eval_step(x, key)`, is not reported.)

Reuse is on purpose in a few shapes the rule recognises and leaves alone: a test that reproduces a draw (the two
results compared in an assertion, or the reproduced noise subtracted and the rest checked); a replay, where the
second use sets the same names again (`state = init(key)` for the next scenario) or a loop redraws per setting
(`normal(key, (n,))` for each `n`), and nothing computed from the first draw is read any more; shuffling two arrays
with one key (`permutation(key, x)`, `permutation(key, y)`: the same positions, so rows keep their labels); a
run whose results are named as unused (`dummy_out = step(params, key, ...)`, `_ = init(key)`); and
`jax.random.clone(key)`, JAX's own way to say a reuse is meant. Every later use of a reused key is a finding at
its own line (four draws from one key: three findings). Calls that draw nothing do not consume:
`jax.eval_shape(init, key, x)`, a type check inside `assertTrue`, a dataclass or NamedTuple that stores the key,
the init of a layer whose parameters are constants (LayerNorm, RMSNorm, GroupNorm, BatchNorm), an init whose
parameters are then replaced by a checkpoint load (`params = restore_checkpoint(path, params)`), one of the
alternatives of `lax.select(c, a, b)` / `jnp.where(c, a, b)` (only one is kept), draws of one shape each kept
only as `x * mask` where the masks contradict each other (`~a & b` against `a & b`: each element keeps one draw),
and a read of a key-generator
object's property that splits a key kept on the object and returns a fresh one each time (fjformer's
`GenerateRNG.rng`, a project's own equivalent, recognised by what the property does; and when the object was
built from literals by a class no module the index can read defines, its reads are not known to be one key, unless
the function stores the attribute first). Functions of other modules
of the project, and of installed packages, are looked into through the project index (read from their source,
never imported): a callee that `del`s its key, only stores it on `self`, logs it or returns it draws nothing,
and one that draws from it on every path makes a second such call a reuse. A function called through
`functools.partial`, `jax.jit` or `jax.vmap` (`jax.vmap(partial(loss, model))(keys, xs)`) is looked into the same
way, each argument at the parameter after those the partial filled. A second draw
under a new name (`y = normal(key)` after `x = normal(key)`) wants other numbers and is flagged, and so is a loop
whose draw never changes (every iteration repeats the first). Several keys reused by one call are one finding.

Also drawing nothing: chex's assertions (`chex.assert_shape(key, (2,))`); the init of a flax layer whose code
creates no random parameter (only `self.variable` caches, constant initialisers, no submodule: maxtext's
`PagedAttentionOp`), seen in this module or through the index, also when the layer is kept on `self` or imported
beside a test script (`from inference.paged_attention import ...` run from the folder above); an init bound with
`functools.partial` and evaluated only under `jax.eval_shape`; a call in `with pytest.raises(...)`, which
returns nothing; and a draw whose values reach nothing but shapes (`.shape`, `jax.eval_shape`,
`jnp.zeros_like`), while a model's `init(key, x)` does read `x`'s values (a layer with cache variables stores
them). But a draw given only as a sample input to a flax linen `init` with that key (`model.init(rng,
uniform(rng, (1, 3)))`, the input read nowhere else) meets nothing the init draws: linen's initialisers get a key
and a shape, never the input; an input kept and fed to `apply` stays a finding. Also no finding: one key handed
to a check helper (it asserts, returns nothing, keeps nothing) for each setting of a sweep; the declared inverse
of a random transformation (`inverse_f`, `f_inverse`) given the transformation's key and its result; draws in
different rows of a parameter table read only by `pytest.mark.parametrize`; and a third use compared with the
first, as the second was. A loop applying one `permutation(key, arr)` to each array shuffles them together. A key kept on `self`
and handed unchanged to a method that draws from it, or to a function stored on `self` (`self._step =
jax.jit(step)`), in every iteration of a loop is a finding; so is a key split through a plain copy (`rng =
self.key`) and then drawn from itself, and noise drawn from the signal's key and added to it, whatever the test
then compares. Ahead-of-time lowering (`jax.jit(f).lower(params, key).compile()`, `step.lower(...)` of a jitted
function, `jax.make_jaxpr(f)(x, key)`) traces on abstract values and draws nothing: the key is still fresh for
the first real call. Splitting alone draws no number: a callee that splits its key consumes it only as surely as
it draws from (or hands on, returns, stores) the pieces: one whose pieces all reach steps that delete or ignore
them leaves the key unconsumed, and one that hands them only to methods of objects it cannot see (fdtdx's
`place_objects`: `obj.place_on_grid(key=subkey)`) may consume it, as such a call does, rather than surely. A
draw read only for `.nbytes` or `.itemsize` reads no number either (jinns's memory profile), while
`jnp.full_like(x, fill)` reads `fill`'s values. Two keys made from one literal seed (`PRNGKey(1)` twice, `key(SEED)` with a module constant, `PRNGKey` and `key`
alike) are one key: a second sure draw from it is a finding, with no fix (another seed could be one the code
already uses); a seed's key rebuilt in each iteration of a loop, or rebuilt to check that two draws are equal, is
left alone. A loop body (`lax.while_loop`, `fori_loop`, `scan`, or `carry = body(carry)` in a Python loop) that
consumes a key read from its carry on every path and hands the carry back with that same key draws the same
numbers every iteration. A parameter that cannot hold a key (annotated `int`, `str`, a dtype; defaulting to a
literal or `jnp.float32`), or an argument known not to be one, is never taken for a consumed key, and an unknown
constructor given `key=` surely consumes only that argument.
A key kept on `self` that `__init__` surely consumes and leaves in place (`keys = split(self.rng, n)` to reset
the environments, `self.rng` not replaced) is consumed already when any method starts: a method that splits or
draws from `self.rng` before replacing it (`self.rng, k = split(self.rng)` in `step`) repeats those bits on its
first call after construction (methods that `__init__` calls run during it and are walked with it). A key made
from a literal seed inside a function run once per iteration, element or device (a `lax.scan`/`fori_loop`/
`while_loop` body, also reached as `partial(self.body, ...)`, or a `vmap`/`pmap`ed function) and drawn from or
split there is the same key every time: every iteration draws the same numbers. A call's results bound to a
private name (`_res = mean_params(p, key)`) and then read are not a throw-away run: a later split of the key the
callee split (`early_key, late_key = split(key, 2)` after the callee's `tpc_key, key = split(key, 2)`) repeats the
callee's draw. A name bound once to a call of a module function that builds and returns a function of its own
(`kernel = build_kernel(step)`, whose `def kernel(rng_key, state)` every `return` hands back) runs that inner
function: two kernels built by one factory and handed the same key draw the same numbers. So does one element
of a returned tuple (or NamedTuple) of such functions (`init, step = make(...)` with `return init, step`), a factory
of another module of the project (through the project index), and a product called through `jax.jit(f)` or chex's
`self.variant(f)`, which pass the arguments on.
A method that hands its key to an object it holds (`self.noise.apply(key, value)`) draws what that object's
class draws: the classes the attribute may hold are read from every assignment to it in the class and its bases
(and, when the object's exact class is unknown, its subclasses); for an object built in the caller (`problem =
Sphere(num_dims=4)`, also called as `jax.jit(jax.vmap(problem.evaluate))(keys, ...)`) a default the constructor
was not given (`self.noise = Noiseless() if noise is None else noise`, a record field's `default_factory`) is what
it holds, so a key handed only to a `Noiseless` model that ignores it draws nothing, while one built with
`noise=Gaussian()` draws. A value passed in, a constructor that forwards `**kwargs`, or a write to the attribute
from outside the class anywhere in the project (`obj.noise = ...`, `setattr`, `eqx.tree_at`) leaves the call a
possible draw, as before. The same holds for the elements of a container attribute set from a constructor
parameter (`self.metrics = metrics`, the object built as `Multi({"count": Count(), "best": Best()})`): a method
that splits its key and hands the pieces through `dict(zip(names, keys))` to `metric.init(...)` for each `metric`
of `self.metrics.items()` draws what those classes' `init`s draw (gfnx's metric modules, whose `init`s build zero
states, draw nothing). A helper that draws from its key only when another argument is None (`if refs is
None: refs = make(key)`) draws nothing when the caller passes a value filled on the very path of the call: `if
refs is None and not boot: refs = make(key)` earlier in the body, the call under `if not boot:` (the same test,
on names nothing rebinds), the fill surely not None (a `jax.numpy`/`jax.random` result, or a function of the
module that returns one), and any other binding only `refs = jnp.asarray(refs)` under `if refs is not None:`.
A flax linen module's `init(rng, x)` (a parameter annotated `nn.Module`, a module built from `flax.linen` or from a
class with `flax.linen.Module` among its bases) draws nothing from `rng` itself: `Scope.make_rng` derives every
parameter key as `fold_in(rng, h)`, `h` a 32-bit SHA-1 of the scope path and a counter, so a `fold_in(rng, 202)`
beside it is another derivation, not a reuse (flaxspeaker); a draw or a split of `rng` beside the init stays one,
and so does `fold_in(rng, 0)` after nnx's `Rngs(rng)`, which folds in the counters 0, 1, 2, .... Building a key
stream consumes the key it is built from: two nnx `Rngs(key)` (or `Rngs(params=key, dropout=key)`) or two haiku
`PRNGSequence(key)` from one key hand out the same keys in the same order (layers that start as copies, an actor's
noise equal to a critic's); an int seed handed to them is not taken for a key. A `jax.random`
call whose results are bound to names the function never reads (`keys = split(key, n)` left unused) is no use of
the key. A use whose results are asserted equal to those of an earlier use other than the first (three runs from
one key, the third compared with the second) reproduces that use, and is judged there. Two runs, each from a key
made from a literal seed at the call (`key=jax.random.key(0)` twice), whose values reach only assertions and tests,
never the same one, are checked apart: no computation sees both.
Uses on paths that exclude each other never meet: the tests of the `if`s around each use (true in the body,
false in the `else`/`elif`), with `and`, `not` and a false `or`, and the tests of earlier `if`s whose branch always
leaves the block (`if not boot: return`), on names the function never rebinds (a draw under `if refs is None and
not boot:` and a `fold_in(key, 1)` reached only when `boot` is true). A key a callee reads only while a flag
parameter has one truth (`if deterministic: return x`, also handed on as `dropout(h, key, deterministic=inference)`)
is not drawn by a call that passes the other truth or leaves such a default, and equinox's `Dropout` in inference
mode (`inference=True`, `deterministic=True`, or built with `p=0`) draws nothing. `hk.transform(f).apply(params,
rng, x)` (also `transform_with_state`, `jax.jit(net.apply)`) draws nothing from `rng` when `f` and everything it
calls are read in the module and never ask haiku for a key (`hk.next_rng_key()`, `hk.dropout`); a network the rule
cannot read (from a registry, a parameter, another package) stays a possible draw. A factory of another module that
returns a record with a function in a field (`Agent(init=_init, ...)`) makes `agent.init(key, ...)` run that
function, judged by its summary.
Draws of one key are alternatives when every way each one's values go parts from every way the other's go at one
decision: branches of nested `jnp.where`/`lax.select`/conditional expressions (a mixture whose components are all
drawn from `key2` and picked per element by a uniform from `key1`), also when the selected value is bound to a
name, returned or kept on `self`, and the values of a dict literal read only at one index (`{"random":
normal(key), "he": normal(key) * s}[self.init]`). A key formatted into a log record (`logging.info("key: %s",
key)`, absl's `logging`, a `logger.debug(...)`) draws nothing, and so does an init whose parameters are replaced at
once by a checkpoint restore into their tree (`params = serialization.from_bytes(params, data)`,
`restore_checkpoint(path, params)`), or an Equinox layer handed to a helper of the module that replaces its
`weight` and `bias` with `eqx.tree_at` and reads the old ones only for shapes (`self.proj = eqx.nn.Linear(...,
key=k)` then `self.proj = init_linear(self.proj, k)`: Equinox's re-initialisation idiom). In a test, two trees compared leaf by leaf (`jax.tree.map(lambda a, b:
jnp.allclose(a, b), s_w, s_m)`) are compared: a wrapper's `init(key)` checked against `vmap(init)(split(key, n))`
reproduces the draw on purpose.
The message says "the same or overlapping numbers" when one function draws from one key twice,
"correlated numbers" otherwise.

JAX's own checker (`jax_debug_key_reuse`) only sees typed keys (`jax.random.key`) at run time; this rule also
covers legacy `jax.random.PRNGKey` keys, before anything runs. Branches that each use a key once are fine, and so
are `fold_in(key, i)` and the `key, subkey = jax.random.split(key)` idiom.
"""
    example = """
import jax

key = jax.random.PRNGKey(0)
w = jax.random.normal(key, (3, 3))
b = jax.random.normal(key, (3,))
"""
    use_instead = """
import jax

key = jax.random.PRNGKey(0)
key, subkey = jax.random.split(key)
w = jax.random.normal(subkey, (3, 3))
b = jax.random.normal(key, (3,))
"""
    fix_safety = """
The fix inserts `key, subkey = jax.random.split(key)` before the first use and gives that use `subkey`, so every
use gets a fresh key (inside a loop this is the usual `key, subkey = split(key)` idiom). It is offered on the
first reuse of each first use only (the edit is the same for every later reuse; a third draw needs another split). It is **unsafe**: the
random numbers change (that is the point). Offered when the first use is a statement of its own line and the file
imports `jax` or `jax.random`; not for reuse inside comprehensions.
"""
    VALID = [
        # fold_in of the same expression once the data has changed: another key
        "import jax\ndef step(base, n, x):\n    a = jax.random.fold_in(base, n)\n"
        "    m1 = jax.random.bernoulli(a, 0.5, x.shape)\n    n = n + 1\n    b = jax.random.fold_in(base, n)\n"
        "    m2 = jax.random.bernoulli(b, 0.5, x.shape)\n    return m1, m2\n",
        # a decorator of this module whose wrapper supplies the key itself: the call's argument is not the key
        "import functools\nimport jax\ndef stochastic(seed):\n    def decorate(fn):\n        state = [jax.random.key(seed)]\n"
        "        @functools.wraps(fn)\n        def wrapper(*args):\n            state[0], sub = jax.random.split(state[0])\n"
        "            return fn(sub, *args)\n        return wrapper\n    return decorate\n@stochastic(seed=0)\n"
        "def noisy(key, q):\n    return q + jax.random.normal(key, q.shape)\ndef run(q):\n"
        "    return [noisy(q) for _ in range(3)]\n",
        # one permutation for every leaf of a batch: a joint shuffle keeps the rows aligned
        "import jax\ndef shuffle(batch, key):\n    return jax.tree.map(lambda a: jax.random.permutation(key, a), batch)\n",
        # jax.tree.map pairing each leaf with its own key
        "import jax\ndef perturb(params, key):\n    leaves, treedef = jax.tree.flatten(params)\n"
        "    keys = jax.tree.unflatten(treedef, list(jax.random.split(key, len(leaves))))\n"
        "    return jax.tree.map(lambda p, k: p + jax.random.normal(k, p.shape), params, keys)\n",
        # key streams from an int seed: not known to be a key here (the seed also seeds NumPy, or the parameters
        # built from it are replaced by a checkpoint)
        "from flax import nnx\ndef build(cfg):\n    model = nnx.Rngs(cfg.seed)\n    other = nnx.Rngs(cfg.seed)\n"
        "    return model, other\n",
        # an identity check of a key after a stream was built from it draws nothing
        "import jax\nimport unittest\nfrom flax import nnx\nclass T(unittest.TestCase):\n    def test(self):\n"
        "        key0 = jax.random.key(0)\n        rngs = nnx.Rngs(params=key0)\n"
        "        self.assertIs(rngs.params.key[...], key0)\n",
        # an attention layer's key projection handed to the cache object it holds, then attended with: calling
        # `self.KVCache_0(key=...)` runs a held object, it builds no class from a key (maxtext's attention)
        "import jax\nclass Attention:\n    def update(self, key, value):\n        return self.KVCache_0(key=key, value=value)\n"
        "    def __call__(self, x):\n        key = self.k(x)\n        value = self.v(x)\n"
        "        cached = self.update(key, value)\n        return self.attention_op(self.q(x), key, value, cached)\n",
        # keys[i] at the index a comprehension binds: another element for each i
        "import jax\ndef f(key, n):\n    keys = jax.random.split(key, n)\n"
        "    return [jax.random.normal(keys[i], (2,)) for i in range(n)]\n",
        # the next key is the half of a split that nothing drew from
        "import jax\ndef sample(key):\n    key, sub = jax.random.split(key)\n    x = jax.random.normal(sub, (3,))\n"
        "    return x, key\n",
        # a predicate asks about the key, it does not draw from it
        "import jax\ndef sample(key, is_key):\n    assert is_key(key)\n    return jax.random.normal(key, ())\n",
        # several fold_in derivations with distinct data from a key that is never split
        "import jax\nkey = jax.random.key(0)\na = jax.random.normal(jax.random.fold_in(key, 0), ())\n"
        "b = jax.random.normal(jax.random.fold_in(key, 1), ())\n",
        # a test reproducing a draw on purpose: actual and expected side by side in an assertion
        "import jax\nimport numpy as np\ndef test_sample(dist):\n    key = jax.random.key(0)\n"
        "    actual = dist.sample(seed=key)\n    expected = jax.random.normal(key, ())\n"
        "    np.testing.assert_allclose(actual, expected)\n",
        # the same call again resets the same name to the same value
        "import jax\ndef test_env(init, step):\n    key = jax.random.key(0)\n    state = init(key)\n"
        "    state = step(state)\n    state = init(key)\n    return state\n",
        # fold_in(key, n) after split(key, n): index n is past the split's keys
        "import jax\ndef ask(key, n):\n    keys = jax.random.split(key, n)\n    extra = jax.random.fold_in(key, n)\n"
        "    return keys, extra\n",
        # the first draw is thrown away on the path that draws again
        "import jax\ndef rotation(key, n):\n    theta = jax.random.uniform(key)\n    if n == 1:\n"
        "        return jax.random.uniform(key)\n    return theta\n",
        # one key handed to two functions we cannot see (a test comparing two implementations): may not be reuse
        "import jax\ndef test_same(fast, slow):\n    key = jax.random.key(0)\n    a = fast(key)\n    b = slow(key)\n"
        "    return a, b\n",
        # a replay: the next scenario sets `state` up again from the same key after the last one was checked
        "import jax\ndef test_game(init, deal, step):\n    key = jax.random.key(0)\n    state = init(key)\n"
        "    state = step(state)\n    assert state.done\n    state = deal(key)\n    return step(state)\n",
        # a sweep: one key per seed, redrawn for each sample size, each setting checked and dropped
        "import jax\ndef test_sweep(estimate):\n    key = jax.random.key(0)\n    for n in (10, 20, 40):\n"
        "        draws = jax.random.normal(key, (n,))\n        assert estimate(draws) > 0\n",
        # data and labels shuffled together: the same positions of both arrays
        "import jax\ndef shuffled(key, x, y):\n    return jax.random.permutation(key, x), jax.random.permutation(key, y)\n",
        # a dummy run for shapes, then the key's real draw
        "import jax\ndef policy(step, params, key, emb):\n    dummy_out, dummy_emb = step(params, key, emb)\n"
        "    return jax.random.categorical(key, dummy_out.shape[-1] * emb)\n",
        # questions that draw nothing: abstract evaluation, a constant-initialised layer, a clone for reuse
        "import jax\nfrom flax import linen as nn\ndef check(init, key, x):\n    shapes = jax.eval_shape(init, key, x)\n"
        "    norm = nn.LayerNorm()\n    y, w = norm.init_with_output(key, x)\n"
        "    again = init(jax.random.clone(key), x)\n    return shapes, y, w, init(key, x), again\n",
        # a record that stores the key for the next step, next to a fold_in derivation
        "import jax\nimport dataclasses\n@dataclasses.dataclass\nclass State:\n    step: int\n    seed: jax.Array\n"
        "def step(state):\n    k = jax.random.fold_in(state.seed, state.step)\n    x = jax.random.normal(k, ())\n"
        "    return State(step=state.step + 1, seed=state.seed), x\n",
        # keys bound per element by a comprehension over a split
        "import jax\nkey = jax.random.key(0)\nxs = [jax.random.normal(k, ()) for k in jax.random.split(key, 3)]\n",
        "import jax\nkey = jax.random.key(0)\nk1, k2 = jax.random.split(key)\na = jax.random.normal(k1, (2,))\n"
        "b = jax.random.uniform(k2, (2,))\n",
        # __init__ keeps the half it did not use on self: step splits a key nothing drew from
        "import jax\nclass Env:\n    def __init__(self, n):\n        self.rng, k = jax.random.split(jax.random.key(0))\n"
        "        self.state = jax.random.split(k, n)\n    def step(self):\n"
        "        self.rng, key = jax.random.split(self.rng)\n        return jax.random.normal(key, ())\n",
        # a fori_loop body that folds the iteration into a key it is given
        "import jax\ndef total(x, n, key):\n    def body(i, acc):\n"
        "        return acc + jax.random.normal(jax.random.fold_in(key, i), x.shape)\n"
        "    return jax.lax.fori_loop(0, n, body, x)\n",
        # the loop idiom
        "import jax\nkey = jax.random.PRNGKey(0)\nfor step in range(10):\n    key, subkey = jax.random.split(key)\n"
        "    x = jax.random.normal(subkey, (3,))\n",
        # branches that each consume once
        "from jax import random\ndef noise(key, train):\n    if train:\n        return random.normal(key, (2,))\n"
        "    else:\n        return random.uniform(key, (2,))\n",
        # an early return ends the path
        "from jax import random\ndef f(key, flag):\n    if flag:\n        return random.normal(key, ())\n"
        "    return random.uniform(key, ())\n",
        # fold_in derives new keys without consuming
        "import jax\nkey = jax.random.key(1)\nxs = [jax.random.normal(jax.random.fold_in(key, i), ()) for i in range(3)]\n",
        # a fresh key per iteration from a split array
        "import jax\nkeys = jax.random.split(jax.random.key(0), 4)\nfor k in keys:\n    print(jax.random.normal(k, ()))\n",
        # different elements of a split key array
        "import jax\nkeys = jax.random.split(jax.random.key(0), 2)\na = jax.random.normal(keys[0], ())\n"
        "b = jax.random.normal(keys[1], ())\n",
        # the same split computed again, another element taken: the two keys of one split
        "import jax\nrng = jax.random.key(0)\na = jax.random.uniform(jax.random.split(rng)[1], ())\n"
        "b = jax.random.uniform(jax.random.split(jax.random.split(rng)[0])[1], ())\n",
        # a key handed to a function that saves it (a checkpoint for resume) is stored, not drawn from (jimgw)
        "import jax\nfrom ckpt import save_checkpoint\ndef run(key, n):\n    for _ in range(n):\n"
        "        key, sub = jax.random.split(key)\n        x = jax.random.normal(sub, ())\n"
        "        save_checkpoint('run.ckpt', key, x)\n    return x\n",
        # sampling a point mass (numpyro's Delta) draws nothing: normal(key) is the key's only draw (coix)
        "import jax\nimport numpyro\nimport numpyro.distributions as dist\ndef model(key):\n"
        "    x = jax.random.normal(key)\n    return numpyro.sample('x', dist.Delta(x), rng_key=key)\n",
        # an init whose parameters are replaced by a checkpoint load draws nothing that is used
        "import jax\nfrom flax.training import checkpoints\ndef setup(model, key, x, path):\n"
        "    params = model.init(key, x)\n    params = checkpoints.restore_checkpoint(path, params)\n"
        "    noise = jax.random.normal(key, x.shape)\n    return params, noise\n",
        # a key-generator object: every read of the property splits a fresh key
        "import jax\nclass Keys:\n    def __init__(self):\n        self._k = jax.random.key(0)\n    @property\n"
        "    def next(self):\n        self._k, k = jax.random.split(self._k)\n        return k\n"
        "def draw(keys):\n    return jax.random.normal(keys.next, ()), jax.random.normal(keys.next, ())\n"
        "src = Keys()\nxs = jax.random.normal(src.next, ()), jax.random.uniform(src.next, ())\n",
        # exclusive alternatives: select keeps one of the two draws
        "import jax\ndef pick(rng, c):\n    return jax.lax.select(c, jax.random.normal(rng, (2,)), jax.random.uniform(rng, (2,)))\n",
        # a call the test expects to raise returns nothing: it keeps nothing it drew
        "import jax\nimport pytest\ndef sample(n, key):\n    if n < 0:\n        raise ValueError(n)\n"
        "    return jax.random.normal(key, (n,))\ndef test_sample():\n    key = jax.random.key(0)\n"
        "    with pytest.raises(ValueError):\n        sample(-1, key)\n    return jax.random.normal(key, (3,))\n",
        # a loop that applies one permutation to each array: they are shuffled together (galsim's `permute`)
        "import jax\ndef permute(key, *arrays):\n    out = []\n    for arr in arrays:\n"
        "        out.append(jax.random.permutation(key, arr))\n    return out\n",
        # a second draw read only for its shape: no number of it is used
        "import jax\nimport jax.numpy as jnp\ndef make(key, n):\n    w = jax.random.normal(key, (n,))\n"
        "    dummy = jax.random.normal(key, (n,))\n    return w, jnp.zeros_like(dummy), dummy.shape\n",
        # a layer with no random parameter (only a zero-filled cache variable): its init draws nothing
        "import jax\nimport jax.numpy as jnp\nfrom flax import linen as nn\nclass Cache(nn.Module):\n    size: int\n"
        "    def __call__(self, x):\n        kv = self.variable('cache', 'kv', jnp.zeros, (self.size,))\n"
        "        kv.value = kv.value + x.sum()\n        return x\n"
        "class CacheTest:\n    def setUp(self):\n        self.op = Cache(4)\n        self.rng = jax.random.key(0)\n"
        "    def test_update(self):\n        x = jax.random.normal(self.rng, (4,))\n"
        "        variables = self.op.init(self.rng, x)\n        y = Cache(4).init(self.rng, x)\n        return variables, y\n",
        # chex's assertions read the key's shape; an init run only under jax.eval_shape draws nothing
        "import functools\nimport chex\nimport jax\ndef rng_split(key, num):\n    chex.assert_shape(key, (2,))\n"
        "    return jax.random.split(key, num)\ndef abstract(init, key):\n    p = functools.partial(init, key)\n"
        "    return jax.eval_shape(p), jax.jit(p).eval_shape()\ndef setup(init, key):\n"
        "    k1, k2 = jax.random.split(key)\n    shapes = abstract(init, key)\n    return k1, k2, shapes\n",
        # the first draw's keys (the rest thrown away to `_`) are overwritten by the second before anything reads them
        "import jax\ndef env_keys(key, n, body):\n    _, keys = jax.lax.scan(body, key, None, n)\n"
        "    keys = jax.random.split(key, n)\n    return keys\n",
        # ahead-of-time lowering (`jit(f).lower(...)`, a jitted function's `.lower`, make_jaxpr) traces abstractly
        "import jax\ndef sim(x, key):\n    return x + jax.random.normal(key, x.shape)\n@jax.jit\ndef step(x, key):\n"
        "    return jax.random.uniform(key, x.shape)\ndef run(x, key):\n    compiled = jax.jit(sim).lower(x, key).compile()\n"
        "    step.lower(x, key)\n    jaxpr = jax.make_jaxpr(sim)(x, key)\n    key, sub = jax.random.split(key)\n"
        "    return compiled(x, sub), step(x, key), jaxpr\n",
        # keys of distinct seeds; one seed's key rebuilt in each iteration of a loop (seeded the same on purpose);
        # a scan that splits its carried key and carries the new one; a dtype handed beside a key
        "import jax\ndef data(tasks, xs):\n    a = jax.random.normal(jax.random.PRNGKey(1), (3,))\n"
        "    b = jax.random.normal(jax.random.PRNGKey(2), (3,))\n    for t in tasks:\n"
        "        p = jax.random.uniform(jax.random.PRNGKey(3), (3,))\n        print(t, p)\n"
        "    def step(carry, x):\n        k, s = carry\n        k, sub = jax.random.split(k)\n"
        "        return (k, s + jax.random.normal(sub, ())), x\n    return a, b, jax.lax.scan(step, (a, 0.0), xs)\n",
        # sample inputs of a linen init drawn from its key and read nowhere else: init reads their shapes only
        "import jax\nfrom flax import linen as nn\nclass Net(nn.Module):\n    @nn.compact\n    def __call__(self, x):\n"
        "        return nn.Dense(2)(x)\ndef make(rng, obs):\n    net = Net()\n"
        "    params = net.init(rng, jax.random.uniform(rng, (1, 3)))\n    return net.apply(params, obs)\n",
        # a sweep handing one key to a check for each setting; a random rotation undone by its declared inverse
        "import jax\ndef check(scale, key):\n    x = scale * jax.random.normal(key, (100,))\n    assert x.std() > 0\n"
        "def sweep(key):\n    for scale in (0.5, 2.0):\n        check(scale, key)\n"
        "def rotate(x, key):\n    return x * jax.random.rademacher(key, x.shape)\n"
        "def inverse_rotate(y, key):\n    return y * jax.random.rademacher(key, y.shape)\n"
        "def round_trip(x, key):\n    y = rotate(x, key)\n    return inverse_rotate(y.round(), key)\n",
        # one key permutes every leaf of a batch alike: inputs and labels stay aligned
        "import jax\ndef shuffle(batch, key):\n    return jax.tree.map(lambda x: jax.random.permutation(key, x), batch)\n",
        # a callee that splits the key and hands every piece to a step that deletes it draws nothing
        "import jax\ndef cast(values, key):\n    del key\n    return values\ndef compress(values, key):\n"
        "    key, subkey = jax.random.split(key)\n    return cast(values, subkey)\ndef record(values, key):\n"
        "    values = compress(values, key)\n    key, subkey = jax.random.split(key)\n"
        "    return values, jax.random.normal(subkey, (3,))\n",
    ]
    INVALID = [
        Invalid(  # a key held in a functools.partial of a sampler: each call draws from it
            "import jax\nfrom functools import partial\ndef init(key):\n    sample = partial(jax.random.normal, key)\n"
            "    return sample((3,)), sample((3,))\n"),
        Invalid(  # a key a jax.tree.map function closes over: every leaf draws the same numbers
            "import jax\ndef perturb(params, key):\n"
            "    return jax.tree.map(lambda p: p + jax.random.normal(key, p.shape), params)\n"),
        Invalid(  # fold_in with the same key and data twice: one key under two names
            "import jax\ndef step(base, n, x):\n    a = jax.random.fold_in(base, n)\n"
            "    m1 = jax.random.bernoulli(a, 0.5, x.shape)\n    b = jax.random.fold_in(base, n)\n"
            "    m2 = jax.random.bernoulli(b, 0.5, x.shape)\n    return m1, m2\n",
            fixed="import jax\ndef step(base, n, x):\n    a = jax.random.fold_in(base, n)\n"
            "    a, subkey = jax.random.split(a)\n    m1 = jax.random.bernoulli(subkey, 0.5, x.shape)\n"
            "    b = jax.random.fold_in(base, n)\n    m2 = jax.random.bernoulli(b, 0.5, x.shape)\n    return m1, m2\n"),
        Invalid(  # a decorator of this module that only forwards its arguments keeps the mapping
            "import functools\nimport jax\ndef logged(fn):\n    @functools.wraps(fn)\n"
            "    def wrapper(*args, **kwargs):\n        return fn(*args, **kwargs)\n    return wrapper\n@logged\n"
            "def noise(key, n):\n    return jax.random.normal(key, (n,))\ndef run(key):\n"
            "    a = noise(key, 3)\n    b = noise(key, 3)\n    return a + b\n",
            fixed="import functools\nimport jax\ndef logged(fn):\n    @functools.wraps(fn)\n"
            "    def wrapper(*args, **kwargs):\n        return fn(*args, **kwargs)\n    return wrapper\n@logged\n"
            "def noise(key, n):\n    return jax.random.normal(key, (n,))\ndef run(key):\n"
            "    key, subkey = jax.random.split(key)\n    a = noise(subkey, 3)\n    b = noise(key, 3)\n    return a + b\n"),
        Invalid(  # two key streams built from one key hand out the same keys in the same order
            "import haiku as hk\nimport jax\ndef streams(seed):\n    key = jax.random.key(seed)\n"
            "    actor = hk.PRNGSequence(key)\n    critic = hk.PRNGSequence(key)\n    return actor, critic\n",
            fixed="import haiku as hk\nimport jax\ndef streams(seed):\n    key = jax.random.key(seed)\n"
            "    key, subkey = jax.random.split(key)\n"
            "    actor = hk.PRNGSequence(subkey)\n    critic = hk.PRNGSequence(key)\n    return actor, critic\n"),
        Invalid(  # nnx's Rngs folds in 0, 1, 2, ... to the key it is built from: two of them are one stream
            "import jax\nfrom flax import nnx\ndef build(seed):\n    key = jax.random.key(seed)\n"
            "    q = nnx.Linear(8, 8, rngs=nnx.Rngs(key))\n    v = nnx.Linear(8, 8, rngs=nnx.Rngs(key))\n"
            "    return q, v\n",
            fixed="import jax\nfrom flax import nnx\ndef build(seed):\n    key = jax.random.key(seed)\n"
            "    key, subkey = jax.random.split(key)\n    q = nnx.Linear(8, 8, rngs=nnx.Rngs(subkey))\n"
            "    v = nnx.Linear(8, 8, rngs=nnx.Rngs(key))\n    return q, v\n"),
        Invalid(  # a sampler that hands back the key it drew from: the caller's next draw repeats the sample
            "import jax\ndef sample(key):\n    x = jax.random.normal(key, (3,))\n    return x, key\n"),
        Invalid(  # a key handed to a function (which draws from it or splits it), then to a sampler
            "import jax\ndef run(model, key):\n    params = model.init(key)\n    noise = jax.random.normal(key, (3,))\n"
            "    return params, noise\n",
            fixed="import jax\ndef run(model, key):\n    key, subkey = jax.random.split(key)\n    params = model.init(subkey)\n"
            "    noise = jax.random.normal(key, (3,))\n    return params, noise\n",
        ),
        Invalid(  # split, then fold_in: fold_in(k, i) is split(k, n)[i]
            "import jax\nkey = jax.random.key(0)\nk1, k2 = jax.random.split(key)\nstep_key = jax.random.fold_in(key, 1)\n",
            fixed="import jax\nkey = jax.random.key(0)\nkey, subkey = jax.random.split(key)\nk1, k2 = jax.random.split(subkey)\n"
            "step_key = jax.random.fold_in(key, 1)\n",
        ),
        Invalid(  # a key stored in an attribute
            "import jax\nclass Agent:\n    def act(self, x):\n        a = jax.random.normal(self.rng, x.shape)\n"
            "        b = jax.random.uniform(self.rng, x.shape)\n        return a + b\n",
        ),
        Invalid(  # a key a scan body closes over: the same numbers every iteration
            "import jax\nfrom jax import lax\ndef rollout(key, xs):\n    def body(c, x):\n"
            "        return c + jax.random.normal(key, ()), x\n    return lax.scan(body, 0.0, xs)\n",
        ),
        Invalid(
            "import jax\nkey = jax.random.PRNGKey(0)\nw = jax.random.normal(key, (3, 3))\nb = jax.random.normal(key, (3,))\n",
            fixed="import jax\nkey = jax.random.PRNGKey(0)\nkey, subkey = jax.random.split(key)\n"
            "w = jax.random.normal(subkey, (3, 3))\nb = jax.random.normal(key, (3,))\n",
        ),
        Invalid(  # reused after split
            "from jax import random as jr\nkey = jr.key(0)\nk1, k2 = jr.split(key)\nx = jr.normal(key, ())\n",
            fixed="from jax import random as jr\nkey = jr.key(0)\nkey, subkey = jr.split(key)\nk1, k2 = jr.split(subkey)\n"
            "x = jr.normal(key, ())\n",
        ),
        Invalid(  # in a loop, never re-derived
            "import jax\ndef noisy(x, key):\n    for _ in range(3):\n        x = x + jax.random.normal(key, x.shape)\n    return x\n",
            fixed="import jax\ndef noisy(x, key):\n    for _ in range(3):\n        key, subkey = jax.random.split(key)\n"
            "        x = x + jax.random.normal(subkey, x.shape)\n    return x\n",
        ),
        Invalid(  # passed to a function, then used again
            "import jax\ndef init(key):\n    return jax.random.normal(key, (2,))\nkey = jax.random.key(0)\n"
            "params = init(key)\nnoise = jax.random.uniform(key, (2,))\n",
            fixed="import jax\ndef init(key):\n    return jax.random.normal(key, (2,))\nkey = jax.random.key(0)\n"
            "key, subkey = jax.random.split(key)\nparams = init(subkey)\nnoise = jax.random.uniform(key, (2,))\n",
        ),
        Invalid(  # inside a traced function
            "import jax\n@jax.jit\ndef dropout2(key, x):\n    a = jax.random.bernoulli(key, 0.5, x.shape)\n"
            "    b = jax.random.bernoulli(key, 0.5, x.shape)\n    return x * a * b\n",
            fixed="import jax\n@jax.jit\ndef dropout2(key, x):\n    key, subkey = jax.random.split(key)\n"
            "    a = jax.random.bernoulli(subkey, 0.5, x.shape)\n    b = jax.random.bernoulli(key, 0.5, x.shape)\n"
            "    return x * a * b\n",
        ),
        Invalid(  # a second draw under a new name wants other numbers, even when the first is no longer used
            "import jax\ndef test_inverse(f, g):\n    key = jax.random.key(0)\n    x = jax.random.normal(key, (3,))\n"
            "    assert f(g(x)).shape == x.shape\n    y = jax.random.normal(key, (3,))\n    assert g(f(y)).shape == y.shape\n",
            fixed="import jax\ndef test_inverse(f, g):\n    key = jax.random.key(0)\n    key, subkey = jax.random.split(key)\n"
            "    x = jax.random.normal(subkey, (3,))\n    assert f(g(x)).shape == x.shape\n    y = jax.random.normal(key, (3,))\n"
            "    assert g(f(y)).shape == y.shape\n",
        ),
        Invalid(  # a loop that never re-derives its key repeats the same iteration
            "import jax\ndef test_deals(deal, check):\n    rng = jax.random.key(0)\n    for _ in range(50):\n"
            "        rng1, rng2 = jax.random.split(rng)\n        assert check(deal(rng2))\n",
            fixed="import jax\ndef test_deals(deal, check):\n    rng = jax.random.key(0)\n    for _ in range(50):\n"
            "        rng, subkey = jax.random.split(rng)\n        rng1, rng2 = jax.random.split(subkey)\n"
            "        assert check(deal(rng2))\n",
        ),
        Invalid(  # train and validation indices from one key: the same indices
            "import jax\ndef split_indices(key, n, k):\n    train = jax.random.choice(key, n, (k,), replace=False)\n"
            "    val = jax.random.choice(key, n, (k,), replace=False)\n    return train, val\n",
            fixed="import jax\ndef split_indices(key, n, k):\n    key, subkey = jax.random.split(key)\n"
            "    train = jax.random.choice(subkey, n, (k,), replace=False)\n"
            "    val = jax.random.choice(key, n, (k,), replace=False)\n    return train, val\n",
        ),
        Invalid(  # in a comprehension
            "import jax\nkey = jax.random.key(0)\nxs = [jax.random.normal(key, ()) for _ in range(4)]\n",
        ),
        Invalid(  # both sets of keys kept: the scan's first key is also split(key, n)[1]
            "import jax\ndef env_keys(key, n, body):\n    _, scanned = jax.lax.scan(body, key, None, n)\n"
            "    keys = jax.random.split(key, n)\n    return scanned, keys\n",
            fixed="import jax\ndef env_keys(key, n, body):\n    key, subkey = jax.random.split(key)\n"
            "    _, scanned = jax.lax.scan(body, subkey, None, n)\n    keys = jax.random.split(key, n)\n"
            "    return scanned, keys\n",
        ),
        Invalid(  # every later draw is its own finding: three draws from one key, two findings
            "import jax\nclass Agent:\n    def act(self, n):\n        a = jax.random.normal(self.rng, (n,))\n"
            "        b = jax.random.uniform(self.rng, (n,))\n        c = jax.random.gumbel(self.rng, (n,))\n"
            "        return a, b, c\n",
            count=2,
        ),
        Invalid(  # a layer with a random parameter draws from the key its init is given; x is kept as data
            "import jax\nfrom flax import linen as nn\nclass Scale(nn.Module):\n    def __call__(self, x):\n"
            "        w = self.param('w', nn.initializers.normal(), x.shape)\n        return w * x\n"
            "def make(key):\n    x = jax.random.normal(key, (4,))\n    return Scale().init(key, x), x\n",
            fixed="import jax\nfrom flax import linen as nn\nclass Scale(nn.Module):\n    def __call__(self, x):\n"
            "        w = self.param('w', nn.initializers.normal(), x.shape)\n        return w * x\n"
            "def make(key):\n    key, subkey = jax.random.split(key)\n    x = jax.random.normal(subkey, (4,))\n"
            "    return Scale().init(key, x), x\n",
        ),
        Invalid(  # a key kept on self, handed to a method that draws from it, in every iteration of a loop
            "import jax\nclass Sampler:\n    def _sample(self, logits, rng):\n"
            "        return jax.random.categorical(rng, logits)\n    def generate(self, steps):\n"
            "        out = []\n        for logits in steps:\n            out.append(self._sample(logits, self.rng))\n"
            "        return out\n",
        ),
        Invalid(  # the same key to a jitted function kept on self (`self._step = jax.jit(step)`), every step
            "import jax\ndef step(p, rng):\n    return p * jax.random.bernoulli(rng, 0.5, p.shape)\nclass Trainer:\n"
            "    def __init__(self):\n        self._step = jax.jit(step)\n        self.rng = jax.random.key(0)\n"
            "    def fit(self, p, n):\n        for _ in range(n):\n            p = self._step(p, self.rng)\n        return p\n",
        ),
        Invalid(  # split through a plain copy (`rng = self.key`), then drawn from the key itself
            "import jax\nclass Features:\n    def matrix(self, n):\n        rng = self.key\n        rows = []\n"
            "        for _ in range(n):\n            rng, sub = jax.random.split(rng)\n"
            "            rows.append(jax.random.normal(sub, (4,)))\n        scale = jax.random.uniform(self.key, (n,))\n"
            "        return rows, scale\n",
        ),
        Invalid(  # noise drawn from the signal's key and added to it: the test's comparison does not make it a
            # reproduction
            "import jax\nimport numpy as np\ndef test_denoise(denoise):\n    key = jax.random.key(0)\n"
            "    clean = jax.random.normal(key, (64,))\n    noisy = clean + 0.01 * jax.random.normal(key, (64,))\n"
            "    np.testing.assert_allclose(denoise(noisy), clean, atol=0.2)\n",
            fixed="import jax\nimport numpy as np\ndef test_denoise(denoise):\n    key = jax.random.key(0)\n"
            "    key, subkey = jax.random.split(key)\n    clean = jax.random.normal(subkey, (64,))\n"
            "    noisy = clean + 0.01 * jax.random.normal(key, (64,))\n"
            "    np.testing.assert_allclose(denoise(noisy), clean, atol=0.2)\n",
        ),
        Invalid(  # in a test, one function run twice on one key for another shape: new data wanted
            "import jax\ndef data(key, shape):\n    return jax.random.normal(key, shape)\ndef test_matmul():\n"
            "    key = jax.random.key(0)\n    x = data(key, (2, 3))\n    g = data(key, (2, 4))\n"
            "    assert (x.T @ g).shape == (3, 4)\n",
            fixed="import jax\ndef data(key, shape):\n    return jax.random.normal(key, shape)\ndef test_matmul():\n"
            "    key = jax.random.key(0)\n    key, subkey = jax.random.split(key)\n    x = data(subkey, (2, 3))\n"
            "    g = data(key, (2, 4))\n    assert (x.T @ g).shape == (3, 4)\n",
        ),
        Invalid(  # two keys made from one literal seed are one key: the labels repeat the tokens (no fix)
            "import jax\ndef batch(n, v):\n    ids = jax.random.randint(jax.random.PRNGKey(1), (n,), 0, v)\n"
            "    labels = jax.random.randint(jax.random.PRNGKey(1), (n,), 0, v)\n    return ids, labels\n",
        ),
        Invalid(  # a while_loop body splits the key of its carry and hands the carry back with the old key
            "import jax\ndef fit(key, n):\n    def body(val):\n        _, sub = jax.random.split(val['key'])\n"
            "        val['perm'] = jax.random.permutation(sub, n)\n        val['i'] += 1\n        return val\n"
            "    return jax.lax.while_loop(lambda v: v['i'] < 5, body, {'key': key, 'i': 0, 'perm': jax.numpy.arange(n)})\n",
        ),
        Invalid(  # __init__ splits self.rng and leaves it in place: step's split repeats the first two keys
            "import jax\nclass Env:\n    def __init__(self, n):\n        self.rng = jax.random.key(0)\n"
            "        self.state = jax.random.split(self.rng, n)\n    def step(self):\n"
            "        self.rng, key = jax.random.split(self.rng)\n        return jax.random.normal(key, ())\n",
        ),
        Invalid(  # a key of a literal seed made in a fori_loop body: every iteration draws the same noise
            "import jax\ndef total(x, n):\n    def body(i, acc):\n"
            "        return acc + jax.random.normal(jax.random.key(0), x.shape)\n"
            "    return jax.lax.fori_loop(0, n, body, x)\n",
        ),
        Invalid(  # the callee splits the key; the caller splits it again after the call (`_res` is read)
            "import jax\ndef mean(p, key):\n    k, key = jax.random.split(key)\n    return p * jax.random.uniform(k)\n"
            "def sample(p, key):\n    _res = mean(p, key)\n    a, b = jax.random.split(key)\n"
            "    return _res + jax.random.normal(a)\n",
            fixed="import jax\ndef mean(p, key):\n    k, key = jax.random.split(key)\n"
            "    return p * jax.random.uniform(k)\ndef sample(p, key):\n    key, subkey = jax.random.split(key)\n"
            "    _res = mean(p, subkey)\n    a, b = jax.random.split(key)\n    return _res + jax.random.normal(a)\n",
        ),
        Invalid(  # two kernels built by one factory, handed the same key
            "import jax\ndef build(step):\n    def kernel(key, x):\n        return x + step * jax.random.normal(key, x.shape)\n"
            "    return kernel\ndef chains(key, x):\n    fine = build(0.1)\n    coarse = build(1.0)\n"
            "    return fine(key, x), coarse(key, x)\n",
            fixed="import jax\ndef build(step):\n    def kernel(key, x):\n"
            "        return x + step * jax.random.normal(key, x.shape)\n    return kernel\ndef chains(key, x):\n"
            "    fine = build(0.1)\n    coarse = build(1.0)\n    key, subkey = jax.random.split(key)\n"
            "    return fine(subkey, x), coarse(key, x)\n",
        ),
        Invalid(  # one element of a split key array, used twice
            "import jax\nkeys = jax.random.split(jax.random.key(0), 3)\na = jax.random.normal(keys[0], ())\n"
            "b = jax.random.uniform(keys[0], ())\n",
        ),
    ]

    def check(self, ctx: RuleContext) -> None:
        reuses = ctx.model.fact(KeyFlow).key_reuses()
        stale = stale_attribute_draws(ctx.model, ctx.model.fact(KeyFlow))
        stale_methods = {(d.method, d.node.attr) for d in stale if isinstance(d.node, ast.Attribute)}
        # `source.draw(4)` twice, found at the calls, is what the method's finding already says (one bug, one place)
        reuses = [r for r in reuses if not (
            isinstance(r.node, ast.Attribute) and not r.label.startswith("self.")
            and (r.node.attr, r.label.rsplit(".", 1)[-1]) in stale_methods)]
        together: dict[tuple[str, int, int], list[str]] = {}  # one call reusing several keys: one finding
        for reuse in reuses:
            if reuse.first is not None:
                together.setdefault(_call_token(ctx, reuse), []).append(reuse.label)
        reported: set[tuple[str, int, int]] = set()
        fixed_firsts: set[int] = set()
        for reuse in reuses:
            label = _shown(reuse)
            if reuse.where == "comprehension":
                ctx.report(reuse.node, self.message("comprehension", key=label))
                continue
            if reuse.where == "carry":
                loop = "this loop body" if reuse.transform == "loop" else f"this `{reuse.transform}` body"
                ctx.report(reuse.node, self.message("carry", key=label, loop=loop))
                continue
            if reuse.where == "returned" and reuse.first is not None:
                ctx.report(reuse.node, self.message(
                    "returned", key=label, used="drawn from" if reuse.first.how == "draw" else "split",
                    first_line=getattr(reuse.first.node, "lineno", 0), first_call=ast.unparse(reuse.first.call.func)))
                continue
            if reuse.where == "seed body":
                site, unit = reuse.transform.split("|", 1)
                body = f"a `{site[:-5]}` body" if site.endswith(" body") else f"a function run by `{site}`"
                ctx.report(reuse.node, self.message("seed_body", key=ast.unparse(reuse.node), body=body, unit=unit))
                continue
            if reuse.where == "init" and reuse.first is not None:
                ctx.report(reuse.node, self.message(
                    "init", key=label, used="drawn from" if reuse.first.how == "draw" else "split",
                    first_line=getattr(reuse.first.node, "lineno", 0), first_call=ast.unparse(reuse.first.call.func),
                    method=reuse.transform, what=_what(ctx, reuse.first, reuse)))
                continue
            if reuse.where == "unmapped":
                ctx.report(reuse.node, self.message("unmapped", key=label, transform=reuse.transform))
                continue
            if reuse.where == "decorator":
                function, decorator = reuse.transform.split("|", 1)
                ctx.report(reuse.node, self.message("decorator", key=label, decorator=decorator, function=function))
                continue
            if reuse.where == "closure":
                body = reuse.transform
                where = f"a `{body[:-5]}` body" if body.endswith(" body") else f"a function run by `{body}`"
                ctx.report(reuse.node, self.message("closure", key=label, transform=where))
                continue
            first = reuse.first
            assert first is not None
            token = _call_token(ctx, reuse)
            if token in reported:
                continue
            reported.add(token)
            labels = together[token]
            named = f"PRNG key `{label}`" if len(labels) == 1 else "PRNG keys " + ", ".join(
                f"`{_shown(r)}`" for r in reuses if r.first is not None and _call_token(ctx, r) == token)
            first_call = ast.unparse(first.call.func)
            if reuse.label.startswith("seed ") and reuse.where == "again" and len(labels) == 1:
                first_line = getattr(first.node, "lineno", 0)
                what = "derived from with `fold_in`" if first.how == "derive" else "consumed"
                ctx.report(reuse.node, self.message("seed", key=label, used=what, first_line=first_line,
                                                    first_call=first_call, what=_what(ctx, first, reuse)))
                continue  # no fix: another seed may be one the code already uses
            if reuse.where == "loop":
                message = self.message("loop", keys=named, are="is" if len(labels) == 1 else "are",
                                       first_call=first_call)
            else:
                first_line = getattr(first.node, "lineno", 0)
                what = "derived from with `fold_in`" if first.how == "derive" else "consumed"
                message = self.message("again", keys=named, were="was" if len(labels) == 1 else "were", used=what,
                                       first_line=first_line, first_call=first_call, what=_what(ctx, first, reuse),
                                       each="it" if len(labels) == 1 else "them")
            single = len(labels) == 1
            # one fix per first use: splitting before it is the same edit for every later reuse of it
            fixable = id(first.call) not in fixed_firsts
            builder = _fix(ctx, first) if (fixable and single and isinstance(first.node, ast.Name)
                                           and first.node.id == label and first.how != "derive") else None
            if builder is not None:
                fixed_firsts.add(id(first.call))
            ctx.report(reuse.node, message, builder,
                       fix_title=f"split `{label}` before its first use" if builder else "")
        self._check_stale_attributes(ctx, stale, {getattr(r.node, "lineno", 0) for r in reuses})

    def _check_stale_attributes(self, ctx: RuleContext, found: list[StaleDraw], lines: set[int]) -> None:
        """A key stored once on an object and drawn from by a method called again and again (stale_attribute.py)."""
        for stale in found:
            if getattr(stale.node, "lineno", 0) in lines:
                continue
            ctx.report(stale.node, self.message("stale", key=stale.label, method=stale.method,
                                                line=stale.repeated_at))


def _shown(reuse: KeyReuse) -> str:
    """How the message names a key: as the code spells it (`jax.random.PRNGKey(123)` for the key of a seed)."""
    if reuse.label.startswith("seed ") or "[@" in reuse.label:  # (`keys[@i]`: an element at a variable index)
        return ast.unparse(reuse.node)
    return reuse.label


def _what(ctx: RuleContext, first: KeyUse, reuse: KeyReuse) -> str:
    """What the two uses share, as far as it is known: the same function drawing from the same key (two
    `normal(key, ...)`, `init(key)` twice) gives the same or overlapping numbers (equal shapes: equal arrays;
    a prefix shape: a prefix of them); anything else (another sampler, a split, a call we cannot see) gives
    numbers computed from the same bits, so correlated."""
    call = ctx.model.scopes.parents.get(reuse.node)
    while call is not None and not isinstance(call, ast.Call):
        call = ctx.model.scopes.parents.get(call)
    same = isinstance(call, ast.Call) and ast.dump(call.func) == ast.dump(first.call.func) and first.how != "derive"
    if same and _other_arguments(call, reuse.node) != _other_arguments(first.call, first.node):  # type: ignore[arg-type]
        same = False  # randint(k, s, 0, 10) then randint(k, s, 10, 30): other numbers, made from the same bits
    return "the same or overlapping numbers" if same else "correlated numbers"


def _other_arguments(call: ast.Call, key: ast.AST) -> list[str]:
    """A call's arguments but the key and the shape (the second positional argument, or `shape=`), as text: two
    draws of one sampler repeat numbers only when these agree (`minval`, `maxval`, `p`, `dtype`, ...)."""
    positional = [ast.dump(a) for i, a in enumerate(call.args) if a is not key and i != 1]
    named = sorted(f"{k.arg}={ast.dump(k.value)}" for k in call.keywords if k.value is not key and k.arg != "shape")
    return positional + named


def _call_token(ctx: RuleContext, reuse: KeyReuse) -> tuple[str, int, int]:
    """The call that reuses a key, and the one it repeats: several keys reused by one call are one hazard."""
    call = ctx.model.scopes.parents.get(reuse.node)
    while call is not None and not isinstance(call, ast.Call):
        call = ctx.model.scopes.parents.get(call)
    first_call = reuse.first.call if reuse.first is not None else None
    return reuse.where, id(call if call is not None else reuse.node), id(first_call)


def _fix(ctx: RuleContext, first: KeyUse):
    """Insert `key, subkey = random.split(key)` before the first use, which then takes `subkey`."""
    source, model = ctx.source, ctx.model
    stmt = first.statement
    rand = model.scopes.spelling_of("jax.random")
    parent = model.scopes.parents.get(stmt) if stmt is not None else None
    if stmt is None or rand is None or parent is None:
        return None
    line_text = source.line_text(stmt.lineno)
    col = source.char_column(stmt.lineno, stmt.col_offset)
    if line_text[:col].strip() or not any(stmt in getattr(parent, f, ()) for f in ("body", "orelse", "finalbody", "handlers")):
        return None
    used = model.scopes.all_names()
    sub = next(f"subkey{i or ''}" for i in range(100) if f"subkey{i or ''}" not in used)
    name = first.node
    assert isinstance(name, ast.Name)
    key = name.id
    indent = line_text[:col]
    name_col = source.char_column(name.lineno, name.col_offset)

    def build() -> Fix | None:
        edits = (
            TextEdit(stmt.lineno, 1, stmt.lineno, 1, f"{indent}{key}, {sub} = {rand}.split({key})\n"),
            TextEdit(name.lineno, name_col + 1, name.lineno, name_col + 1 + len(key), sub),
        )
        return Fix(safe=False, description=f"Split `{key}` before its first use (line {stmt.lineno})", edits=edits)

    return build
