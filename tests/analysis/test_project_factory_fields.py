"""A function held in a record's field by a factory of another module (round 21 of issue 22, myriad-jax's autotune
test): `agent = make_agent(...)` where every `return` of `make_agent` builds one record class (a NamedTuple here)
with `init=_init`, a function of the factory's module, so `agent.init(key, ...)` runs `_init`, and the project
index's summary of `_init` says what it does with the key. A random agent's `_init` ignores its key (no reuse
beside the observation drawn from it); a linear agent's draws its weights from it (the weights are the
observation). Both projects were run under JAX on CPU when written: the linear one prints `same numbers: True`,
the random one `state: ()`."""

from pathlib import Path

from sharpbits.analysis.project_index import ProjectIndex

from tests.analysis.small_projects import findings_in_project, no_shared_index  # noqa: F401 (autouse fixture)

AGENT = '''\
from typing import Any, Callable, NamedTuple


class Agent(NamedTuple):
    params: Any
    init: Callable
    select_action: Callable
'''

RANDOM_AGENT = '''\
import jax

from pkg.agent import Agent


def _init(key, sample_obs, params):
    return ()


def _select_action(key, obs, state, params):
    return jax.random.uniform(key, (params,)), state


def make_agent(num_actions):
    return Agent(params=num_actions, init=_init, select_action=_select_action)
'''

LINEAR_AGENT = '''\
import jax

from pkg.agent import Agent


def _init(key, sample_obs, params):
    return jax.random.normal(key, sample_obs.shape)


def _select_action(key, obs, state, params):
    return obs @ state, state


def make_agent(num_actions):
    if num_actions < 1:
        raise ValueError("no actions")
    return Agent(params=num_actions, init=_init, select_action=_select_action)
'''


def _profile(agent_module: str) -> str:
    return f'''\
import jax

from pkg.{agent_module} import make_agent


def profile():
    key = jax.random.key(42)
    obs = jax.random.normal(key, (3,))
    agent = make_agent(3)
    state = agent.init(key, obs, agent.params)
    return obs, state


if __name__ == "__main__":
    obs, state = profile()
    if isinstance(state, tuple):
        print("state:", state)
    else:
        print("same numbers:", bool((obs == state).all()))
'''


def test_a_record_field_holding_a_function_that_ignores_the_key(tmp_path: Path) -> None:
    files = {"agent.py": AGENT, "random_agent.py": RANDOM_AGENT, "use.py": _profile("random_agent")}
    assert findings_in_project(tmp_path / "a", files, "use.py") == []


def test_a_record_field_holding_a_function_that_draws_from_the_key(tmp_path: Path) -> None:
    files = {"agent.py": AGENT, "linear_agent.py": LINEAR_AGENT, "use.py": _profile("linear_agent")}
    assert findings_in_project(tmp_path / "b", files, "use.py") == [("prng-key-reuse", 10)]


def test_the_index_names_the_functions_a_factory_puts_in_fields(tmp_path: Path) -> None:
    pkg = tmp_path / "c" / "pkg"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "agent.py").write_text(AGENT)
    (pkg / "linear_agent.py").write_text(LINEAR_AGENT)
    (pkg / "built.py").write_text(LINEAR_AGENT.replace("from pkg.agent import Agent", "class Agent:\n"
                                                       "    def __init__(self, **fields):\n"
                                                       "        self.fields = fields"))
    (pkg / "mixed.py").write_text(LINEAR_AGENT.replace(
        "        raise ValueError(\"no actions\")",
        "        return Agent(params=0, init=_select_action, select_action=_select_action)"))
    index = ProjectIndex()
    for path in pkg.rglob("*.py"):
        index.update(path, path.read_text())
    view = index.view(pkg / "__init__.py")
    assert view.factory_field("pkg.linear_agent.make_agent", "init") == "pkg.linear_agent._init"
    assert view.factory_field("pkg.linear_agent.make_agent", "select_action") == "pkg.linear_agent._select_action"
    assert view.factory_field("pkg.linear_agent.make_agent", "params") is None  # a value, no function
    # a class that is no record may do anything with what it is given
    assert view.factory_field("pkg.built.make_agent", "init") is None
    # two returns giving `init` different functions: the field is not known
    assert view.factory_field("pkg.mixed.make_agent", "init") is None
    assert view.factory_field("pkg.mixed.make_agent", "select_action") == "pkg.mixed._select_action"
