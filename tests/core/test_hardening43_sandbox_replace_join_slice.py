"""`| slice(n)`, a replace and a join build as much as a `*` does.

`'abc' | slice(10**9)` makes a billion empty lists whatever its input, and a replace or a join
multiplies a text that the `*` bound let through (`('a' * 5000000) | replace('a', 'aaa')`
is 15 million characters; a chain of them grows past any memory). Each is now refused naming
its size, as `*` and the paddings are, and ordinary uses (a separator, a join by attribute, a
count-limited replace) are unchanged. The sizes are over the bound but small enough to be
built without it, so the tests fail before the fix without exhausting the machine."""

from __future__ import annotations

import re

import pytest
from jinja2.exceptions import SecurityError

from spec_debug.sandbox import BoundedSandbox

REFUSED = [
    ("{{ 'abc' | slice(20000000) | list | length }}", "'| slice' would make 20,000,000 lists"),
    ("{{ ('a' * 5000000) | replace('a', 'aaa') }}", "'| replace' would make 15,000,000 characters"),
    ("{{ 'ab' | replace('', 'x' * 9000000) }}", "'| replace' would make 27,000,002 characters"),
    ("{{ ('a' * 5000000).replace('a', 'aaa') }}", "'.replace()' would make 15,000,000 characters"),
    ("{{ (['a' * 5000000] * 3) | join }}", "'| join' would make 15,000,000 characters"),
    ("{{ ['a', 'b', 'c'] | join('x' * 6000000) }}", "'| join' would make 12,000,003 characters"),
    ("{{ ''.join(['a' * 5000000] * 3) }}", "'.join()' would make 15,000,000 characters"),
]

ORDINARY = [
    ("{{ [1, 2, 3, 4, 5] | slice(2) | list }}", "[[1, 2, 3], [4, 5]]"),
    ("{{ [1, 2, 3] | slice(2, 0) | list }}", "[[1, 2], [3, 0]]"),
    ("{{ 'gpu-node-3' | replace('-', '_') }}", "gpu_node_3"),
    ("{{ ('a' * 5000000) | replace('a', 'aaa', 1) | length }}", "5000002"),
    ("{{ 'a,b'.replace(',', '') }}", "ab"),
    ("{{ ['layer3', 'layer31'] | join(', ') }}", "layer3, layer31"),
    ("{{ [{'n': 'a'}, {'n': 'b'}] | join(',', attribute='n') }}", "a,b"),
    ("{{ ['a', 'b'] | map('upper') | join('-') }}", "A-B"),
    ("{{ ','.join(['a', 'b'] | map('upper')) }}", "A,B"),
    ("{{ [1, 2] | join }}", "12"),
]


@pytest.mark.parametrize(("template", "message"), REFUSED)
def test_a_build_over_the_bound_is_refused_with_its_size(template: str, message: str) -> None:
    with pytest.raises(SecurityError, match=re.escape(message)):
        BoundedSandbox().from_string(template).render()


@pytest.mark.parametrize(("template", "text"), ORDINARY)
def test_ordinary_uses_are_unchanged(template: str, text: str) -> None:
    assert BoundedSandbox().from_string(template).render() == text
