"""An acceptance said with its old value and its value now ("acceptance rate was 0.72 before the
upgrade, now 0.35") gave only the old one: a drafter that stopped being accepted read as a good
one. The value now is a reading too, as "from A to B" and "A -> B" already were."""

import pytest

from spec_debug.session.metrics import scan_metrics


@pytest.mark.parametrize("text, readings", [
    ("acceptance rate was 0.72 before the upgrade, now 0.35", [("accept_rate", 0.72), ("accept_rate", 0.35)]),
    ("accept length 3.1 before the restart, now only 1.02", [("accept_length", 3.1), ("accept_length", 1.02)]),
    ("acceptance rate: 70% before, now 12%", [("accept_rate", 70.0), ("accept_rate", 12.0)]),
    # another sentence's "now" is not this reading's
    ("acceptance rate 0.7 before. Now the server is down 3 times", [("accept_rate", 0.7)]),
])
def test_the_value_now_is_read(text, readings):
    assert [(m.name, m.value) for m in scan_metrics(text, True)] == readings
