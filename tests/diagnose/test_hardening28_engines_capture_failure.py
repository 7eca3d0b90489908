"""Round 28: engines.CaptureFailure is a plain typed value (a frozen dataclass), not a str
subclass: what reads it reads .reason and .fix, and str() gives the one line notes print.
Before, it was a str ("reason; fix") with two attributes tacked on, so `in`, slicing and
json.dumps all saw the joined text and a caller could split it in the wrong place."""

from __future__ import annotations

import dataclasses

from spec_debug.eagle3 import engines

QWEN35 = "Qwen3_5ForConditionalGeneration"


def test_capture_failure_is_a_typed_value_not_text():
    failure = engines.capture_failure("sglang", QWEN35, "0.5.21")  # hardening65: 0.5.22 captures it
    assert not isinstance(failure, str)
    assert dataclasses.asdict(failure) == {"reason": failure.reason, "fix": failure.fix}
    assert str(failure) == f"{failure.reason}; {failure.fix}"
    assert "sglang#38307" in failure.reason and "serve the draft with vLLM" in failure.fix

