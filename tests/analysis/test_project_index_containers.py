"""A key placed in a container literal that is handed to a call (`model.apply(v, x, rngs={"dropout": rng})`,
`f([key, other])`) reaches that call: the project index's summary must not say the parameter draws nothing
(it said "store", so `sharpbits check` lost the reuse that `analyze` alone reports, because the index's answer
for `train_step` overrode the module's own knowledge of linen's `apply`). A container kept for later, or handed to
a call known to keep or ignore its arguments, still draws nothing."""

from pathlib import Path

from sharpbits.analysis.engine import analyze
from sharpbits.analysis.project_index import ProjectIndex

STEP = '''\
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


def handed_in_a_list(key, other):
    return combine([key, other])


def kept_in_a_dict(key):
    state = {"rng": key}
    return 0


def logged(key):
    print({"rng": key})


dropout_rng = jax.random.PRNGKey(2)
outs = []
for i in range(3):
    outs.append(train_step(variables, x, dropout_rng))
'''


def summary(tmp_path: Path, qualname: str, param: str):
    (tmp_path / "steps.py").write_text(STEP)
    index = ProjectIndex([tmp_path])
    return index, index.module("steps").functions[qualname].param(param)


def test_a_key_in_a_dict_given_to_a_call_may_be_drawn(tmp_path):
    _, rng = summary(tmp_path, "train_step", "rng")
    assert "call" in rng.uses and rng.direct == "maybe"


def test_a_key_in_a_list_given_to_a_call_may_be_drawn(tmp_path):
    _, key = summary(tmp_path, "handed_in_a_list", "key")
    assert "call" in key.uses and key.direct == "maybe"


def test_a_key_kept_in_a_dict_or_printed_draws_nothing(tmp_path):
    _, kept = summary(tmp_path, "kept_in_a_dict", "key")
    assert kept.direct is None
    _, printed = summary(tmp_path, "logged", "key")
    assert printed.direct is None


def test_the_reuse_through_a_jitted_linen_step_is_found_with_the_index(tmp_path):
    index, _ = summary(tmp_path, "train_step", "rng")
    path = str(tmp_path / "steps.py")
    with_index = [(f.line, f.rule) for f in analyze(STEP, path, project=index).findings]
    alone = [(f.line, f.rule) for f in analyze(STEP, path).findings]
    line = STEP.splitlines().index("    outs.append(train_step(variables, x, dropout_rng))") + 1
    assert (line, "prng-key-reuse") in alone
    assert with_index == alone
