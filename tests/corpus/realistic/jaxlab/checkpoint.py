"""Checkpoints: pytrees flattened to `{path: array}` and stored as .npz, with JSON metadata.

Restoring needs a template pytree with the same structure (typically freshly initialised parameters).
Typed PRNG keys are stored as their raw key data.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import tempfile
from pathlib import Path
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

STEP_DIR = re.compile(r"^step_(\d{8})$")
ARRAYS_FILE = "arrays.npz"
META_FILE = "meta.json"
FORMAT_VERSION = 2


def _is_typed_key(x) -> bool:
    return isinstance(x, jax.Array) and jnp.issubdtype(x.dtype, jax.dtypes.prng_key)


def flatten(tree) -> dict[str, np.ndarray]:
    flat = {}
    for path, leaf in jax.tree_util.tree_leaves_with_path(tree):
        name = jax.tree_util.keystr(path)
        if _is_typed_key(leaf):
            flat[name + "#key"] = np.asarray(jax.random.key_data(leaf))
        else:
            flat[name] = np.asarray(leaf)
    return flat


def unflatten(template, flat: dict[str, np.ndarray]):
    leaves_with_path, treedef = jax.tree_util.tree_flatten_with_path(template)
    leaves = []
    for path, leaf in leaves_with_path:
        name = jax.tree_util.keystr(path)
        if _is_typed_key(leaf):
            leaves.append(jax.random.wrap_key_data(jnp.asarray(flat[name + "#key"])))
            continue
        if name not in flat:
            raise KeyError(f"checkpoint has no entry for {name}")
        value = flat[name]
        if value.shape != tuple(leaf.shape):
            raise ValueError(f"{name}: checkpoint shape {value.shape} != expected {tuple(leaf.shape)}")
        leaves.append(jnp.asarray(value, dtype=leaf.dtype))
    return jax.tree_util.tree_unflatten(treedef, leaves)


def save_tree(directory: str | Path, tree, metadata: dict[str, Any] | None = None) -> Path:
    """Writes atomically: into a temporary folder first, then renames."""
    directory = Path(directory)
    directory.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=directory.name + ".tmp", dir=directory.parent))
    try:
        np.savez(tmp / ARRAYS_FILE, **flatten(jax.device_get(tree)))
        meta = {"format": FORMAT_VERSION, **(metadata or {})}
        (tmp / META_FILE).write_text(json.dumps(meta, indent=2, default=_json_default))
        if directory.exists():
            shutil.rmtree(directory)
        os.replace(tmp, directory)
    finally:
        if tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)
    return directory


def load_tree(directory: str | Path, template):
    directory = Path(directory)
    with np.load(directory / ARRAYS_FILE) as archive:
        flat = {name: archive[name] for name in archive.files}
    return unflatten(template, flat)


def load_metadata(directory: str | Path) -> dict[str, Any]:
    return json.loads((Path(directory) / META_FILE).read_text())


def _json_default(value):
    if isinstance(value, np.generic | np.ndarray | jax.Array):
        return np.asarray(value).tolist()
    raise TypeError(f"not JSON serialisable: {type(value).__name__}")


class CheckpointManager:
    """Keeps the last `keep` checkpoints under `root/step_XXXXXXXX/`."""

    def __init__(self, root: str | Path, keep: int = 3) -> None:
        self.root = Path(root)
        self.keep = keep
        self.root.mkdir(parents=True, exist_ok=True)

    def steps(self) -> list[int]:
        found = []
        for child in self.root.iterdir():
            m = STEP_DIR.match(child.name)
            if m and (child / ARRAYS_FILE).exists():
                found.append(int(m.group(1)))
        return sorted(found)

    def latest_step(self) -> int | None:
        steps = self.steps()
        return steps[-1] if steps else None

    def path(self, step: int) -> Path:
        return self.root / f"step_{step:08d}"

    def save(self, step: int, tree, metadata: dict[str, Any] | None = None) -> Path:
        out = save_tree(self.path(step), tree, {"step": step, **(metadata or {})})
        self._prune()
        return out

    def restore(self, template, step: int | None = None):
        step = self.latest_step() if step is None else step
        if step is None:
            raise FileNotFoundError(f"no checkpoints under {self.root}")
        return step, load_tree(self.path(step), template)

    def _prune(self) -> None:
        steps = self.steps()
        for old in steps[: max(len(steps) - self.keep, 0)]:
            shutil.rmtree(self.path(old), ignore_errors=True)


def average_checkpoints(manager: CheckpointManager, template, last: int = 3):
    """Uniform average of the last `last` checkpoints (a cheap ensemble)."""
    steps = manager.steps()[-last:]
    if not steps:
        raise FileNotFoundError("nothing to average")
    total = None
    for step in steps:
        tree = load_tree(manager.path(step), template)
        total = tree if total is None else jax.tree_util.tree_map(jnp.add, total, tree)
    return jax.tree_util.tree_map(lambda x: x / len(steps), total)
