"""IncrementalAnalysis with a project index gives exactly what a from-scratch `analyze` with the same index gives,
version after version, as in the language server: the document is fed to the index before each version
(`ProjectIndex.update(..., lazy=True)`, lsp/features/documents.py), and another module of the project it calls
into changes between versions (another open document): then either the document's incremental state starts
afresh, as the server does for a document importing a module that changed (`SharpbitsServer.project_stale`), or it
is kept and the next version is typed before that (what it keeps must then not assume the other modules the same). Random edit sequences with
hypothesis' fixed seed (tests/conftest.py), and every line of the document replaced by each snippet."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sharpbits.analysis.engine import analyze
from sharpbits.analysis.incremental import IncrementalAnalysis
from sharpbits.analysis.project_index import ProjectIndex

from tests.analysis.test_incremental import apply, summary

RAND = '''import jax


def draw(key, shape):
    return jax.random.normal(key, shape)


def maybe(key, flag):
    if flag:
        return jax.random.normal(key, ())
    return 0.0


def keep(key):
    return key


class Sampler:
    def __init__(self, scale):
        self.scale = scale

    def sample(self, key, n):
        return jax.random.normal(key, (n,)) * self.scale


def make_step():
    def step(key, x):
        return jax.random.normal(key, x.shape) + x
    return step


class Base:
    def noise(self, key):
        return jax.random.uniform(key)
'''

# what another open document of the project may become between two versions of the one typed in: a callee that
# stops consuming its key, one that starts, a method that moves
RAND_VARIANTS = [
    RAND,
    RAND.replace("    return jax.random.normal(key, shape)\n", "    return key\n"),
    RAND.replace("def keep(key):\n    return key\n", "def keep(key):\n    return jax.random.normal(key, ())\n"),
    RAND.replace("    def noise(self, key):\n", "    def other(self, key):\n"),
    RAND.replace("        return jax.random.normal(key, (n,)) * self.scale\n", "        return self.scale\n"),
]

DOCUMENT = '''import jax
from pkg.rand import draw, maybe, keep, Sampler, make_step, Base
from pkg import rand


def train(key, x):
    a = draw(key, x.shape)
    b = draw(key, x.shape)
    return a + b


def careful(key, x):
    k1, k2 = jax.random.split(key)
    return draw(k1, x.shape), rand.draw(k2, x.shape), maybe(key, True)


def sample_twice(key):
    s = Sampler(2.0)
    return s.sample(key, 3), s.sample(key, 3)


def stepped(key, x):
    step = make_step()
    return step(key, x), step(key, x)


class Model(Base):
    def run(self, key):
        return self.noise(key) + self.noise(key)


def kept(key):
    k = keep(key)
    return draw(k, (2,)), draw(key, (2,))


def helper(key):
    return rand.draw(key, (1,))


def caller(key):
    return helper(key) + helper(key)


def make_local():
    def inner(key, x):
        return jax.random.normal(key, x.shape) + x
    return inner


local_step = make_local()


def uses_local(key, x):
    return local_step(key, x), local_step(key, x)


class Local:
    def noise(self, key):
        return rand.maybe(key, False)


class Derived(Local):
    def twice(self, key):
        return self.noise(key), self.noise(key)
'''

# lines that change what the project index answers for a call of this module
SNIPPETS = [
    "a = draw(key, x.shape)", "b = rand.draw(key, ())", "return draw(key, ())", "return helper(key)",
    "from pkg.rand import keep as draw", "from pkg.rand import draw as keep", "import pkg.rand as rand",
    "def draw(key, shape):", "def helper(key):", "class Model(Base):", "class Model:", "class Base:",
    "s = Sampler(1.0)", "step = make_step()", "step = draw", "k = keep(key)", "key = 0", "s = 3",
    "return rand.draw(key, (1,))", "return key", "pass", "def noise(self, key):", "class Derived(Base):",
    "return self.noise(key)", "x = rand.keep(key)", "return jax.random.normal(key, ())",
    "return jax.random.normal(key, x.shape) + x", "local_step = make_local()", "local_step = rand.make_step()",
]

EDIT = st.one_of(
    st.tuples(st.just("insert"), st.integers(0, 10_000), st.sampled_from(SNIPPETS), st.integers(0, 2)),
    st.tuples(st.just("delete"), st.integers(0, 10_000)),
    st.tuples(st.just("replace"), st.integers(0, 10_000), st.sampled_from(SNIPPETS), st.integers(0, 2)),
    st.tuples(st.just("replace"), st.integers(0, 10_000), st.sampled_from(SNIPPETS), st.just(1)),
    st.tuples(st.just("type"), st.integers(0, 100_000), st.sampled_from(list("x(): =[]0#\n"))),
    st.tuples(st.just("undo"), st.integers(1, 4)),
    st.tuples(st.just("other"), st.integers(0, len(RAND_VARIANTS) - 1)),
    st.tuples(st.just("other"), st.integers(0, len(RAND_VARIANTS) - 1), st.just("kept")),
)


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("project")
    (root / "pkg").mkdir()
    (root / "pkg" / "__init__.py").write_text("")
    (root / "pkg" / "rand.py").write_text(RAND)
    (root / "pkg" / "m.py").write_text(DOCUMENT)
    return root


def assert_every_version_matches(root: Path, edits: list) -> None:
    """Type `edits` into pkg/m.py (an "other" edit feeds pkg/rand.py another text instead, and the document's
    incremental state starts afresh, as in the server): each version's incremental result is a fresh analysis's
    with the same index."""
    index = ProjectIndex([root])
    path = str(root / "pkg" / "m.py")
    other = str(root / "pkg" / "rand.py")
    document = IncrementalAnalysis(path, project=index)
    history = [DOCUMENT]
    for edit in [None, *edits]:
        if edit is not None and edit[0] == "other" and len(edit) == 3:
            # the server may analyse a version typed before it marks the document stale (lsp/
            # test_project_index_documents.py): the incremental state is kept, only the texts it saw before are
            # forgotten (the server's project check answers those afresh later)
            index.update(other, RAND_VARIANTS[edit[1]], lazy=True)
            document._recent.clear()
            history.append(history[-1] + f"# after another module changed {len(history)}\n")
        elif edit is not None and edit[0] == "other":
            index.update(other, RAND_VARIANTS[edit[1]], lazy=True)
            document = IncrementalAnalysis(path, project=index)  # (the server: `incremental.close(uri)`)
        elif edit is not None:
            history.append(apply(history, edit))
        text = history[-1]
        index.update(path, text, lazy=True)
        assert summary(document.update(text)) == summary(analyze(text, path, project=index)), edit


def test_the_document_has_findings_from_the_index(project: Path) -> None:
    """(The module is one the index changes the findings of: without it, fewer keys are reused.)"""
    path = str(project / "pkg" / "m.py")
    index = ProjectIndex([project])
    index.update(path, DOCUMENT, lazy=True)
    with_index = analyze(DOCUMENT, path, project=index).findings
    without = analyze(DOCUMENT, path, project=ProjectIndex()).findings
    assert len(with_index) > len(without) >= 1


@settings(max_examples=40, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(edits=st.lists(EDIT, min_size=1, max_size=12))
def test_every_version_gets_what_a_fresh_analysis_with_the_index_gets(project: Path, edits: list) -> None:
    assert_every_version_matches(project, edits)


@pytest.mark.parametrize("snippet", SNIPPETS)
def test_every_line_replaced_gets_what_a_fresh_analysis_with_the_index_gets(project: Path, snippet: str) -> None:
    """Every third line (each line for some snippet) replaced by the snippet (at the line's indentation), then
    another line by the next snippet, then the other module changed: every version gets what a fresh analysis
    gets."""
    lines = DOCUMENT.count("\n")
    following = SNIPPETS[(SNIPPETS.index(snippet) + 1) % len(SNIPPETS)]
    for at in range(SNIPPETS.index(snippet) % 3, lines, 3):
        assert_every_version_matches(project, [("replace", at, snippet, 1), ("replace", (at + 7) % lines, following, 1),
                                               ("other", at % len(RAND_VARIANTS)), ("type", at * 13, "x"),
                                               ("other", (at + 1) % len(RAND_VARIANTS), "kept")])


def _walks(document: IncrementalAnalysis):
    from sharpbits.analysis.rules.prng_key_reuse.key_flow import KeyFlow
    from sharpbits.analysis.rules.prng_key_reuse.reuse import KeyWalks

    memory = document.reusable.memory_of(KeyFlow)
    assert isinstance(memory, KeyWalks)
    return memory


def _typed(document: IncrementalAnalysis, index: ProjectIndex, path: str, text: str) -> None:
    index.update(path, text, lazy=True)
    assert summary(document.update(text)) == summary(analyze(text, path, project=index))


def test_an_edit_inside_one_function_takes_the_others_project_answers_again(project: Path) -> None:
    """The scope filter's questions to the index (KeyFlow._project_may_consume) are asked again only of functions
    linked by name to the edited one; an edit of a class asks every function again."""
    path = str(project / "pkg" / "m.py")
    index = ProjectIndex([project])
    document = IncrementalAnalysis(path, project=index)
    _typed(document, index, path, DOCUMENT)
    edited = DOCUMENT.replace("    return draw(k, (2,)), draw(key, (2,))", "    return draw(k, (3,)), draw(key, (2,))")
    _typed(document, index, path, edited)
    first = _walks(document).answers_reused
    assert first >= 5
    # `helper` is named by `caller`: its answer is asked again, and every other one taken
    _typed(document, index, path, edited.replace("    return rand.draw(key, (1,))", "    return rand.draw(key, (4,))"))
    assert _walks(document).answers_reused == first - 1
    _typed(document, index, path, edited.replace("        return rand.maybe(key, False)", "        return rand.maybe(key, True)"))
    assert _walks(document).answers_reused == 0
