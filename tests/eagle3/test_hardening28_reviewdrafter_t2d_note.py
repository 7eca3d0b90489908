"""A speculators draft of a pruned vocabulary saved with d2t and no t2d serves as it is: vLLM
skips t2d and SGLang reads d2t alone (vllm llama_eagle3.py load_weights `if "t2d" in name:
continue`; sglang llama_eagle3.py `hot_token_id = d2t + arange`). Round 28 made it a failed
t2d check with an SD303 issue: `drafter vocab` exited 1 on a draft the engines serve right,
and `diagnose` raised SD303, an error on the serving path ("token ids index the wrong rows"),
for what only stops speculators' from_pretrained (training cannot resume from it). Now it is a
note: exit 0, no SD303 finding, the line with the fix still given."""

from __future__ import annotations

import json

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")

from typer.testing import CliRunner  # noqa: E402

from spec_debug.diagnose.checks.common import Where  # noqa: E402
from spec_debug.diagnose.checks.vocab_maps import check_vocab_report  # noqa: E402
from spec_debug.eagle3.commands import drafter_app  # noqa: E402
from tests.eagle3.test_hardening28_drafter_t2d_missing import world  # noqa: E402,F401  (the fixture)


def test_drafter_vocab_exits_0_and_says_it_in_a_note(world):
    result = CliRunner().invoke(drafter_app, ["vocab", "--model", str(world / "draft"),
                                              "--target", str(world / "target"), "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["ok"]
    assert [c["issues"] for c in report["checks"] if c["issues"]] == []
    [note] = [n for n in report["notes"] if n.startswith("d2t is saved without t2d")]
    assert note.endswith("t2d[arange(128) + d2t] = True)")


def test_diagnose_raises_no_sd303_for_it(world):
    result = CliRunner().invoke(drafter_app, ["vocab", "--model", str(world / "draft"),
                                              "--target", str(world / "target"), "--json"])
    findings = check_vocab_report(json.loads(result.output), Where(host="h", step="vocab"))
    assert [f.code for f in findings] == []
