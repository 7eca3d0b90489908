"""SD004's fix names no input the finding did not ask for.

The demo's reference_forward step says "Not checked: --var python=the server's interpreter,
and --var engine=sglang|vllm", and its fix read "Pass the named input, e.g. `--var
server_log=/var/log/sglang.log` or `--var hidden_states=/data/hs`": two inputs that step never
reads, so a newcomer passed a server log and saw the same line again. The fix now points at
the title, which names what each such line needs."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from spec_debug.diagnose.steps.common import not_checked


@pytest.mark.parametrize("provide", [
    "--var python=the server's interpreter, and --var engine=sglang|vllm",
    "--var target_model=DIR",
    "a readable serving-path dump (--var serving_dump=DIR)",
])
def test_the_fix_names_only_what_the_title_asks_for(provide: str) -> None:
    finding = not_checked(SimpleNamespace(host="gpu01", step_id="reference_forward"), "engine forward not read", provide)
    assert finding.title == f"Not checked: {provide}"
    fix = finding.remediation
    assert "Not checked:" in fix and "run again" in fix
    for unrelated in ("server_log", "hidden_states", "/var/log/sglang.log"):
        assert unrelated not in fix
