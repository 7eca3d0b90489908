"""A width taken from an item of a list or mapping argument is bounded too.

`'{:{b[1]}}'.format(1, b=[0, 10**9])` names its width through an item lookup. The check bounded
only the integers given directly as arguments, so a width inside a list or a mapping passed:
the template built a billion-character string. The check now looks the item up as str.format
does and bounds that value, while a large item printed as a value still prints."""

from __future__ import annotations

import pytest
from jinja2.exceptions import SecurityError

from spec_debug.sandbox import BoundedSandbox


@pytest.mark.parametrize("template", [
    "{{ '{a[0]:{b[1]}}'.format(a=[1], b=[0, 20000000]) }}",
    "{{ '{0:{1[w]}}'.format(1, {'w': 20000000}) }}",
])
def test_a_width_read_from_an_item_is_refused(template: str) -> None:
    with pytest.raises(SecurityError, match="'.format\\(\\)' would make 20,000,000 characters"):
        BoundedSandbox().from_string(template).render()


def test_a_large_item_printed_as_a_value_still_prints() -> None:
    template = "{{ '{a[0]:{b[1]}}|'.format(a=[20000000], b=[0, 10]) }}"
    assert BoundedSandbox().from_string(template).render() == "  20000000|"
