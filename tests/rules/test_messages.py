"""Each rule's messages are templates in its class (`messages`), readable in the rule's file: every template is
used by the rule's code, every key the code asks for is a template, and each template's fields are plain names."""

import ast
import inspect
import string

import pytest
from sharpbits.analysis.rules import ALL_RULES


def _asked_keys(rule: type) -> set[str]:
    """The string constants in the first argument of every `message(...)` call of the rule's module."""
    tree = ast.parse(inspect.getsource(inspect.getmodule(rule)))
    keys: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "message" \
                and node.args:
            keys |= {c.value for c in ast.walk(node.args[0]) if isinstance(c, ast.Constant) and isinstance(c.value, str)}
    return keys


@pytest.mark.parametrize("rule", ALL_RULES, ids=lambda r: r.name)
def test_every_message_template_is_used_and_every_asked_one_exists(rule):
    assert rule.messages, f"{rule.name} has no message templates"
    assert _asked_keys(rule) == set(rule.messages)


@pytest.mark.parametrize("rule", ALL_RULES, ids=lambda r: r.name)
def test_message_fields_are_plain_names(rule):
    for key, template in rule.messages.items():
        fields = [name for _, name, spec, conversion in string.Formatter().parse(template) if name is not None]
        assert all(name.isidentifier() for name in fields), (key, fields)
        filled = rule.message(key, **{name: f"<{name}>" for name in fields})
        assert "{" not in filled.replace("{}", "") and "}" not in filled.replace("{}", ""), (key, filled)
