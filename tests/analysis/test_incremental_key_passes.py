"""prng-key-reuse's module passes taken from the last version of a document (rules/prng_key_reuse/reuse.py,
ModulePasses): the scope filter, the closure, decorator, carry, after-`__init__` and seeded-body reuses of every
function, class and loop call whose top-level statement an edit neither touched nor linked by name, and whose
functions' recorded kinds and trace sites are the same. Checked: that they are taken again, and that the edits that
change what they read (the function itself, a function linked by name, which functions always consume a key, a
module constant stored elsewhere, trace sites, the imports) get what a fresh analysis gets."""

import pytest
from sharpbits.analysis.engine import analyze
from sharpbits.analysis.incremental import IncrementalAnalysis
from sharpbits.analysis.rules.prng_key_reuse.key_flow import KeyFlow
from sharpbits.analysis.rules.prng_key_reuse.reuse import KeyWalks, ModulePasses

from tests.analysis.test_incremental import apply, replaced, summary

# one finding of each pass: the decorator's key (line 12), closures of a vmap and a tree.map (27, 31), a key
# handed unmapped (39), a key handed back in a loop's carry (44), a literal seed in a loop body (53), a key
# drawn from in `__init__` and again in a method (66)
KEY_PASSES = '''import jax
from jax import lax

SEED = 0


def stochastic(seed):
    def deco(fn):
        key = jax.random.key(seed)

        def wrapper(*args):
            return fn(key, *args)
        return wrapper
    return deco


@stochastic(seed=0)
def noisy(key, x):
    return x + jax.random.normal(key, x.shape)


def use_noisy(x):
    return noisy(x) + noisy(x)


def per_row(key, xs):
    return jax.vmap(lambda x: x + jax.random.normal(key, x.shape))(xs)


def mapped(key, params):
    return jax.tree.map(lambda p: p + jax.random.normal(key, p.shape), params)


def sample(x, key):
    return x + jax.random.normal(key, x.shape)


def unmapped(xs, key):
    return jax.vmap(sample, in_axes=(0, None))(xs, key)


def body(i, carry):
    key, x = carry
    x = x + jax.random.normal(key, ())
    return key, x


def loop(key, x):
    return lax.fori_loop(0, 3, body, (key, x))


def seeded(i, x):
    return x + jax.random.normal(jax.random.key(SEED), ())


def run_seeded(x):
    return lax.fori_loop(0, 3, seeded, x)


def draw(key):
    return jax.random.normal(key, ())


class Walker:
    def __init__(self, seed):
        self.rng = jax.random.key(seed)
        self.noise = draw(self.rng)

    def step(self):
        return jax.random.normal(self.rng, ())


def other(x):
    y = x + 1
    return y
'''

FINDINGS = [12, 27, 31, 39, 44, 53, 70]


def passes_of(document: IncrementalAnalysis) -> ModulePasses:
    walks = document.reusable.memory_of(KeyFlow)
    assert isinstance(walks, KeyWalks)
    return walks.passes


def lines(result) -> list[int]:
    return [f.line for f in result.findings if f.rule == "prng-key-reuse"]


def test_the_module_has_a_finding_of_each_pass():
    assert lines(analyze(KEY_PASSES, "m.py")) == FINDINGS


def test_an_edit_inside_one_function_takes_the_other_functions_passes_again():
    document = IncrementalAnalysis("m.py")
    document.update(KEY_PASSES)
    passes = passes_of(document)
    assert sum(passes.reused.values()) == 0  # the first version: nothing to take
    text = replaced(KEY_PASSES, "    y = x + 1\n", "    y = x + 2\n")
    result = document.update(text)
    assert summary(result) == summary(analyze(text, "m.py")) and lines(result) == FINDINGS
    functions = 19  # 15 at module level or in the class, `deco`, `wrapper` and two lambdas
    # only `other` (the edited statement) asked again: its filter and closures; the rest taken again (the two
    # loop calls; the four bodies run per iteration or element: the vmapped lambda and `sample`, `body` and
    # `seeded`), and so are the walks
    assert passes.run == {"module facts": 0, "filter": 1, "closure": 1, "decorator": 0, "carry": 0,
                          "after init": 0, "seeds": 0}
    assert passes.reused == {"module facts": 1, "filter": functions - 2 - 1, "closure": functions - 1,
                             "decorator": 1, "carry": 2, "after init": 1, "seeds": 2 + 4}
    walks = document.reusable.memory_of(KeyFlow)
    assert isinstance(walks, KeyWalks) and walks.reused > 0
    # typing on: the same again (the records taken again are taken again)
    text = replaced(text, "    y = x + 2\n", "    y = x + 3\n")
    assert summary(document.update(text)) == summary(analyze(text, "m.py"))
    assert passes.run["closure"] == 1 and passes.reused["closure"] == functions - 1


def test_an_edit_of_a_linked_function_asks_its_functions_again():
    """`use_noisy` calls `noisy`: an edit of `use_noisy` asks `noisy`'s passes again (a decorator's reuse reads
    the calls of the function anywhere in the module)."""
    document = IncrementalAnalysis("m.py")
    document.update(KEY_PASSES)
    passes = passes_of(document)
    text = replaced(KEY_PASSES, "    return noisy(x) + noisy(x)\n", "    return noisy(x) + 1\n")
    result = document.update(text)
    assert summary(result) == summary(analyze(text, "m.py"))
    assert 12 not in lines(result)  # called once now: the decorator's key is drawn from once
    assert passes.run["decorator"] == 1 and passes.reused["decorator"] == 0


# edits that change what a reused result read, each with the findings that change (what the reuse guards against)
CHANGING_EDITS = [
    # a function of the same statement: the edited statement is new
    ("    return jax.vmap(lambda x: x + jax.random.normal(key, x.shape))(xs)\n",
     "    return jax.vmap(lambda x: x + jax.random.normal(jax.random.fold_in(key, 1), x.shape))(xs)\n", {27}, set()),
    # a second call of the decorated function elsewhere (linked by name: the function is asked again)
    ("    return noisy(x) + noisy(x)\n", "    return noisy(x)\n", {12}, set()),
    ("    y = x + 1\n", "    y = noisy(x)\n", set(), set()),
    # the loop's body, another statement (linked by name): it hands back a new key now
    ("    return key, x\n", "    return jax.random.fold_in(key, i), x\n", {44}, set()),
    # trace sites: the vmap maps the key now (the function's sites change, and its caller is linked by name)
    ("in_axes=(0, None))(xs, key)", "in_axes=(0, 0))(xs, key)", {39}, set()),
    # which module functions always consume a key: `draw` no longer does (the filter and the walks after
    # `__init__` read it)
    ("def draw(key):\n    return jax.random.normal(key, ())\n", "def draw(key):\n    return key\n", {70}, set()),
    # a module constant stored elsewhere: `SEED` is no constant anymore (a seed's label reads every store of it)
    ("    y = x + 1\n", "    SEED = 1\n    y = x + SEED\n", {53}, set()),
    # the imports: every function asked again
    ("from jax import lax\n", "from jax import lax as lax2\nlax = lax2\n", set(), set()),
]


@pytest.mark.parametrize(("old", "new", "gone", "added"), CHANGING_EDITS,
                         ids=["own-statement", "calls-elsewhere", "call-added", "loop-body", "trace-sites",
                              "always-consumed", "module-constant", "imports"])
def test_an_edit_that_changes_what_a_reused_result_read_gets_what_a_fresh_analysis_gets(old, new, gone, added):
    document = IncrementalAnalysis("m.py")
    before = lines(document.update(KEY_PASSES))
    text = replaced(KEY_PASSES, old, new)
    result = document.update(text)
    assert summary(result) == summary(analyze(text, "m.py"))
    shift = new.count("\n") - old.count("\n")
    at = KEY_PASSES.index(old)
    start = KEY_PASSES[:at].count("\n") + 1
    moved = {line if line < start else line + shift for line in before}
    expected = {line for line in moved if line not in {g if g < start else g + shift for g in gone}} | added
    assert set(lines(result)) == expected
    # and back: the last version's records are the edited one's
    assert summary(document.update(KEY_PASSES)) == summary(analyze(KEY_PASSES, "m.py"))


def test_a_module_constant_stored_in_another_function_is_asked_again():
    """A walk taken from the last version read `SEED` as a module constant: storing it anywhere else (here, a
    local of another function) makes it none, so the walk is not taken again (it was before ModulePasses)."""
    base = ("import jax\n\nSEED = 0\n\n\ndef f():\n    a = jax.random.normal(jax.random.PRNGKey(SEED), ())\n"
            "    b = jax.random.normal(jax.random.PRNGKey(SEED), ())\n    return a + b\n\n\ndef g():\n"
            "    x = 1\n    return x\n")
    document = IncrementalAnalysis("m.py")
    assert lines(document.update(base)) == [8]
    text = replaced(base, "    x = 1\n    return x\n", "    SEED = 1\n    return SEED\n")
    result = document.update(text)
    assert summary(result) == summary(analyze(text, "m.py")) and lines(result) == []


# lines that change what the passes read: keys drawn and handed on, loops and their bodies, vmaps and tree maps,
# decorators, module constants, classes
SNIPPETS = ["return key, x", "return x", "key = jax.random.key(0)", "x = jax.random.normal(key, ())",
            "return lax.fori_loop(0, 3, body, (key, x))", "return jax.vmap(sample)(xs, key)",
            "return jax.tree.map(lambda p: p + jax.random.normal(key, ()), x)", "@stochastic(seed=1)",
            "SEED = 2", "self.rng = key", "return noisy(x)", "def body(i, carry):", "pass"]


@pytest.mark.parametrize("snippet", SNIPPETS)
def test_every_line_replaced_gets_what_a_fresh_analysis_gets(snippet):
    """Every second line replaced by the snippet (at the line's indentation), then another by the next snippet,
    then the first line typed back: every version gets what a fresh analysis gets."""
    count = KEY_PASSES.count("\n")
    following = SNIPPETS[(SNIPPETS.index(snippet) + 1) % len(SNIPPETS)]
    for at in range(SNIPPETS.index(snippet) % 2, count, 2):
        document = IncrementalAnalysis("m.py")
        history = [KEY_PASSES]
        document.update(KEY_PASSES)
        for edit in (("replace", at, snippet, 1), ("replace", (at + 9) % count, following, 1)):
            history.append(apply(history, edit))
            assert summary(document.update(history[-1])) == summary(analyze(history[-1], "m.py")), (at, edit)
        history.append(history[1])
        assert summary(document.update(history[-1])) == summary(analyze(history[-1], "m.py")), at


# `helper` names neither `g` nor `main`, and `main` does not name it: its statement is kept when `main` changes.
# But `main` jitting `g` makes `helper` traced (called from `g`), with a key for `k`: its flow records a key now,
# and the scope filter, which let it out, lets it in (two `Model(k)`, whose constructor draws from `k`)
CALLED_FROM_TRACED = '''import jax


class Model:
    def __init__(self, key):
        self.w = jax.random.normal(key, ())


def helper(k, x):
    a = Model(k)
    b = Model(k)
    return a, b, x


def g(x):
    k = jax.random.key(0)
    return helper(k, x)


def main(x):
    return g(x)
'''


def test_a_kept_function_whose_recorded_kinds_changed_is_asked_again():
    """The module passes' results of a kept statement hold only while its functions' recorded kinds and trace
    sites are the same: here they change through a function the edit names, not through `helper`'s names."""
    jitted = replaced(CALLED_FROM_TRACED, "    return g(x)\n", "    return jax.jit(g)(x)\n")
    assert lines(analyze(CALLED_FROM_TRACED, "m.py")) == [] and lines(analyze(jitted, "m.py")) == [11]
    for first, second in ((CALLED_FROM_TRACED, jitted), (jitted, CALLED_FROM_TRACED)):
        document = IncrementalAnalysis("m.py")
        document.update(first)
        result = document.update(second)
        assert summary(result) == summary(analyze(second, "m.py"))
        assert passes_of(document).run["filter"] == 3  # `main`, `g` (named by it) and `helper` (its kinds)
