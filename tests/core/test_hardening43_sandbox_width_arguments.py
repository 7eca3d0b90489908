"""Only the argument a `*` or a nested `{w}` takes is a width.

The bound of stop 35 refused a `'%*d'` or `'{:{w}}'` template whenever ANY integer argument
was over 10 million: `'%*d GPUs, %d tokens' % (3, 8, 20000000)` failed the step though it
prints a 30-character line. The checks now follow the arguments as Python's printf and
str.format consume them (a `*` the next one, `{}` the next automatic number, `{w}` and `{1}`
the one they name), so a large value printed as a value passes and a large width is still
refused."""

from __future__ import annotations

import re

import pytest
from jinja2.exceptions import SecurityError

from spec_debug.sandbox import BoundedSandbox

PRINTED = [
    ("{{ '%*d GPUs, %d tokens' % (3, 8, 20000000) }}", "  8 GPUs, 20000000 tokens"),
    ("{{ '%d tokens in %*d s' % (20000000, 4, 12) }}", "20000000 tokens in   12 s"),
    ("{{ '%.*f%% of %d' % (2, 61.234, 20000000) }}", "61.23% of 20000000"),
    ("{{ '%%%*d' % (3, 1) }}", "%  1"),
    ("{{ '%*d|%d' | format(2, 1, 20000000) }}", " 1|20000000"),
    ("{{ '{:{w}}|{n}'.format('x', w=3, n=20000000) }}", "x  |20000000"),
    ("{{ '{} {:>{}}'.format(20000000, 'x', 3) }}", "20000000   x"),
    ("{{ '{0:{1}}|{2}'.format('x', 3, 20000000) }}", "x  |20000000"),
]

REFUSED = [
    ("{{ '%d %*d' % (1, 20000000, 1) }}", "'%' would make 20,000,000 characters"),
    ("{{ '%.*f' % (20000000, 1.0) }}", "'%' would make 20,000,000 characters"),
    ("{{ '%d|%*d' | format(1, 20000000, 1) }}", "'| format' would make 20,000,000 characters"),
    ("{{ '{} {:>{}}'.format(1, 'x', 20000000) }}", "'.format()' would make 20,000,000 characters"),
    ("{{ '{0:{1}}'.format(1, 20000000) }}", "'.format()' would make 20,000,000 characters"),
    ("{{ '{:{w.real}}'.format(1, w=20000000) }}", "'.format()' would make 20,000,000 characters"),
]


@pytest.mark.parametrize(("template", "text"), PRINTED)
def test_a_large_value_that_is_not_a_width_is_printed(template: str, text: str) -> None:
    assert BoundedSandbox().from_string(template).render() == text


@pytest.mark.parametrize(("template", "message"), REFUSED)
def test_a_large_width_is_still_refused(template: str, message: str) -> None:
    with pytest.raises(SecurityError, match=re.escape(message)):
        BoundedSandbox().from_string(template).render()
