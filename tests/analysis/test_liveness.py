"""values_dead_before: whether the values one statement binds can still be read when another runs."""

from __future__ import annotations

import ast
import textwrap

import pytest
from sharpbits.analysis.liveness import values_dead_before


class _Tree:
    def __init__(self, code: str) -> None:
        self.tree = ast.parse(code)
        self.parents = {child: node for node in ast.walk(self.tree) for child in ast.iter_child_nodes(node)}


def _pair(code: str) -> tuple[_Tree, ast.stmt, ast.stmt]:
    code = textwrap.dedent(code)
    tree = _Tree(code)
    lines = code.splitlines()
    first_line = next(i for i, line in enumerate(lines, 1) if "# first" in line)
    second_line = next(i for i, line in enumerate(lines, 1) if "# second" in line)

    def innermost(line: int) -> ast.stmt:
        found = [n for n in ast.walk(tree.tree) if isinstance(n, ast.stmt) and n.lineno == line]
        return max(found, key=lambda n: n.col_offset)

    return tree, innermost(first_line), innermost(second_line)


DEAD = {
    "rebound after asserting": """
        def test(key):
            state = init(key)  # first
            state = step(state)
            assert state.done
            state = init(key)  # second
            return state
        """,
    "first thrown away on the returning path": """
        def rotation(key, n):
            theta = uniform(key)  # first
            if n == 1:
                return uniform(key)  # second
            return theta
        """,
    "first in a branch the second is not in": """
        def rotation(key, n, theta=None):
            if theta is None:
                theta = uniform(key)  # first
            if n == 1:
                return uniform(key)  # second
            return theta
        """,
    "inside a with block, nothing read after": """
        def test(key):
            with enable_x64():
                x = normal(key)  # first
                self.assertTrue(x.sum() > -100)
                x = normal(key)  # second
                self.assertTrue(x.sum() > -100)
        """,
    "sweep: each setting's values rebound next iteration": """
        def test(key):
            for n in (10, 20):
                draws = normal(key, (n,))  # first # second
                scale = estimate(draws)
                assert scale > 0
        """,
    "out of one subtest loop into the next (optax's shape sweeps)": """
        def test(key):
            for shape in shapes:
                with self.subTest(shape=shape):
                    targets = bernoulli(key, 0.5, shape)  # first
                    loss = dice(make(shape), targets)
                    self.assertTrue(loss >= 0)
            for shape in more_shapes:
                with self.subTest(shape=shape):
                    predictions = normal(key, shape)  # second
                    targets = one_hot(shape)
                    loss = dice(predictions, targets)
                    self.assertTrue(loss >= 0)
        """,
}

MEET = {
    "the first value is read after the second": """
        def init(key):
            w = normal(key)  # first
            b = normal(key)  # second
            return w, b
        """,
    "the second statement reads the first value": """
        def run(key):
            pos = sample(key)  # first
            state = init(pos, key)  # second
            return state
        """,
    "handed to a call that may keep it": """
        def run(key, out):
            x = normal(key)  # first
            out.append(x)
            x = normal(key)  # second
            return x
        """,
    "stored into an object": """
        def run(self, key):
            x = normal(key)  # first
            self.saved = x
            x = normal(key)  # second
            return x
        """,
    "accumulated across iterations": """
        def run(key, xs):
            total = 0
            for x in xs:
                noise = normal(key)  # first # second
                total = total + noise
            return total
        """,
    "a loop whose values survive the iteration": """
        def run(key, xs):
            for x in xs:
                if x:
                    best = normal(key)  # first # second
            return best
        """,
    "module level names outlive the code": """
        w = normal(key)  # first
        w = normal(key)  # second
        """,
    "a closure reads it": """
        def run(key):
            x = normal(key)  # first
            f = lambda: x
            x = normal(key)  # second
            return f
        """,
    "a branch reads it after the second": """
        def run(key, flag):
            x = normal(key)  # first
            y = normal(key)  # second
            if flag:
                return x
            return y
        """,
    "not an assignment": """
        def run(env, key):
            env.reset(key)  # first
            x = normal(key)  # second
            return x
        """,
    "read in the next loop before it is bound again": """
        def test(key):
            for shape in shapes:
                targets = bernoulli(key, 0.5, shape)  # first
            for shape in more_shapes:
                predictions = normal(key, shape)  # second
                loss = dice(predictions, targets)
                targets = one_hot(shape)
        """,
    "read by the first loop's next iteration after the second": """
        def test(key, xs):
            prev = None
            for x in xs:
                y = normal(key) if prev is None else prev  # second
                prev = uniform(key)  # first
        """,
    "the loop's value survives it and is returned": """
        def test(key):
            for shape in shapes:
                targets = bernoulli(key, 0.5, shape)  # first
            predictions = normal(key)  # second
            return predictions, targets
        """,
}


@pytest.mark.parametrize("name", sorted(DEAD))
def test_values_dead(name: str) -> None:
    tree, first, second = _pair(DEAD[name])
    assert values_dead_before(tree, first, second, same_statement=first is second)


@pytest.mark.parametrize("name", sorted(MEET))
def test_values_meet(name: str) -> None:
    tree, first, second = _pair(MEET[name])
    assert not values_dead_before(tree, first, second, same_statement=first is second)
