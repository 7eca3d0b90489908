"""SGLang's send_one prints its reading as a tabulate "pretty" table, borders of "+" corners.

``python3 -m sglang.test.send_one`` (python/sglang/test/send_one.py) ends with
tabulate(rows, headers=["Latency (s)", "Tokens", "Acc Length", "Speed (token/s)"],
tablefmt="pretty"): the delimiter rows are "+-----+-----+", with no "|", and were not taken for
a table's rule, so neither the accept length nor the speed was read (the unit "(token/s)" is cut
before the prose scan). It is the quick check people run after launching an EAGLE server.
"""

from spec_debug.session.metrics import extract_metrics

SEND_ONE = """Here is a minimal FastAPI server:

```python
from fastapi import FastAPI
app = FastAPI()
```

+-------------+--------+------------+-----------------+
| Latency (s) | Tokens | Acc Length | Speed (token/s) |
+-------------+--------+------------+-----------------+
|    1.572    |  512   |   3.281    |     325.66      |
+-------------+--------+------------+-----------------+
"""


def _readings(text, prose=False):
    return sorted((m.name, m.value, m.unit) for m in extract_metrics(text, prose=prose))


def test_send_one_gives_its_accept_length_and_speed():
    for prose in (False, True):
        assert _readings(SEND_ONE, prose) == [("accept_length", 3.281, "tokens"), ("throughput", 325.66, "tok/s")]


def test_plus_signs_and_dashes_in_prose_are_no_table():
    assert _readings("a +--+ b\n| x | y |\n+--+ c -- d", True) == []
    assert _readings("diff --git a/x b/x\n+++ b/x\n@@ -1 +1 @@\n-| 3 | 4 |\n+| 5 | 6 |\n") == []
