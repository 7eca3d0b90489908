"""--speculative-config with a trailing comma (session 12 review of 5c445a3).

`{"method": "eagle3", "model": "d", "num_speculative_tokens": 3,}` is refused by json.loads (so
by vLLM's argparse) and read by Python's literal reader: the message named only single quotes
and True/False/None as the cause, neither of which the value has.
"""

from __future__ import annotations

from spec_debug.diagnose.steps import launch_step


def test_a_trailing_comma_is_named():
    facts = launch_step.parse({"source": "var", "models": {}, "cmdline":
                               "vllm serve m --speculative-config "
                               "'{\"method\": \"eagle3\", \"model\": \"d\", \"num_speculative_tokens\": 3,}'"})
    error = facts["launch"]["error"]
    assert "trailing comma" in error
    assert '{"method": "eagle3", "model": "d", "num_speculative_tokens": 3}' in error
