"""The project index summarises a fed text (an open document's, `ProjectIndex.update(..., lazy=True)`) outside its
lock: the language server's project check summarises a module in its own thread while the analysis of the next
keystroke asks the index about other modules; those questions must not wait for the summary (a 5,000-line module's
shape is several parses' worth). Deterministic: the summary is held on an event, never timed."""

import threading

from sharpbits.analysis import project_index
from sharpbits.analysis.project_index import ProjectIndex

TYPED = "import jax\n\n\ndef f(key):\n    return jax.random.normal(key, ())\n"
OTHER = "def use(key):\n    del key\n    return 0\n"


def test_a_lookup_does_not_wait_for_another_modules_summary(tmp_path, monkeypatch):
    index = ProjectIndex([tmp_path])
    index.update(tmp_path / "other.py", OTHER, lazy=True)
    assert index.module("other") is not None
    index.update(tmp_path / "typed.py", TYPED, lazy=True)

    entered, release = threading.Event(), threading.Event()
    real = project_index.summarise

    def held(text, name, *args, **kwargs):
        if name == "typed":
            entered.set()
            assert release.wait(30), "the test never released the summary"
        return real(text, name, *args, **kwargs)

    monkeypatch.setattr(project_index, "summarise", held)
    found = {}
    summarising = threading.Thread(target=lambda: found.setdefault("typed", index.module("typed")))
    summarising.start()
    try:
        assert entered.wait(30)
        # the summary of `typed` is under way and held: the other module is answered meanwhile
        asked = threading.Thread(target=lambda: found.setdefault("other", index.module("other")))
        asked.start()
        asked.join(30)
        assert not asked.is_alive(), "a lookup of another module waited for a summary in another thread"
        assert found["other"] is not None and "use" in found["other"].functions
    finally:
        release.set()
        summarising.join(30)
    assert found["typed"] is not None and "f" in found["typed"].functions
    assert index.module("typed") is found["typed"]  # kept: a second question summarises nothing
    assert index.parsed == 2


def test_a_text_fed_while_its_older_text_is_summarised_is_the_one_kept(tmp_path, monkeypatch):
    index = ProjectIndex([tmp_path])
    index.update(tmp_path / "typed.py", TYPED, lazy=True)
    newer = TYPED + "\n\ndef g(key):\n    del key\n"
    entered, release = threading.Event(), threading.Event()
    real = project_index.summarise

    def held(text, name, *args, **kwargs):
        if text == TYPED:
            entered.set()
            assert release.wait(30)
        return real(text, name, *args, **kwargs)

    monkeypatch.setattr(project_index, "summarise", held)
    found = {}
    summarising = threading.Thread(target=lambda: found.setdefault("typed", index.module("typed")))
    summarising.start()
    try:
        assert entered.wait(30)
        index.update(tmp_path / "typed.py", newer, lazy=True)  # the editor sent a newer version meanwhile
    finally:
        release.set()
        summarising.join(30)
    assert "g" in found["typed"].functions  # the older text's summary was not kept over the newer text
    assert "g" in index.module("typed").functions


def test_a_summary_makes_its_shape_once(tmp_path):
    index = ProjectIndex([tmp_path])
    index.update(tmp_path / "typed.py", TYPED, lazy=True)
    module = index.module("typed")
    assert module.shape() is module.shape()
