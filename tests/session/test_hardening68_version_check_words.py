"""The postmortem's "what went well" told a turn to `pip show sglang` after a failed EAGLE-3
launch as "launching the server → running commands": the reader learned neither what was looked
at nor what it showed, though the check was the diagnosis (SGLang 0.4.1 predates EAGLE-3). It now
names the packages checked and the versions the check printed."""

from __future__ import annotations

from pathlib import Path

import pytest

from spec_debug.session import analyze_path
from spec_debug.session.postmortem import postmortem_view
from spec_debug.session.versions_seen import printed_versions
from tests.session.test_hardening65_distill_version_checks import _session

_INSTALL = "ssh gpu01 'pip install -U \"sglang[all]==0.4.6\"'"
# (the failure in words, as printed: was "after tool_error: launch_server.py: ...", hardening 72)
_LEAD = ("Changed approach after launch_server.py: error: argument --speculative-algorithm: invalid "
         "choice: 'EAGLE3' (choose from… [msg 2]: launching the server → ")


def test_what_each_kind_of_check_printed() -> None:
    assert printed_versions({"sglang"}, "Name: sglang\nVersion: 0.4.1\nSummary: SGLang", False) == {"sglang": "0.4.1"}
    # pip show of two, the second's block names its own version
    assert printed_versions({"sglang", "torch"}, "Name: torch\nVersion: 2.5.1\n---\nName: sglang\nVersion: 0.4.1",
                            False) == {"torch": "2.5.1", "sglang": "0.4.1"}
    assert printed_versions({"sglang", "flashinfer-python"},
                            "flashinfer-python     0.2.0.post2\nsglang                0.4.1\n", False) == \
        {"flashinfer-python": "0.2.0.post2", "sglang": "0.4.1"}
    assert printed_versions({"vllm"}, "# Name  Version  Build  Channel\nvllm  0.8.5  pypi_0  pypi", False) == \
        {"vllm": "0.8.5"}
    assert printed_versions({"sglang"}, "sglang==0.4.6.post1\nsgl-kernel==0.1.0", False) == {"sglang": "0.4.6.post1"}
    assert printed_versions({"sglang"}, "0.4.1\n", True) == {"sglang": "0.4.1"}
    # another package's line, a missing package, a bare number of no __version__ print: nothing
    assert printed_versions({"sglang"}, "sgl-kernel 0.1.0", False) == {}
    assert printed_versions({"sglang"}, "WARNING: Package(s) not found: sglang", False) == {}
    assert printed_versions({"sglang"}, "0.4.1\n", False) == {}


@pytest.mark.parametrize(("check", "output", "said"), [
    ("ssh gpu01 'pip show sglang'", "Name: sglang\nVersion: 0.4.1\nLocation: /usr/lib/python3/dist-packages",
     "checking installed versions (sglang 0.4.1)"),
    ("ssh gpu01 'pip list 2>/dev/null | grep -i -E \"sglang|flashinfer\"'", "sglang                0.4.1",
     "checking installed versions (flashinfer, sglang 0.4.1)"),
    ("ssh gpu01 'python -c \"import sglang; print(sglang.__version__)\"'", "0.4.1",
     "checking installed versions (sglang 0.4.1)"),
    ("ssh gpu01 'pip show sglang'", "WARNING: Package(s) not found: sglang", "checking installed versions (sglang)"),
])
def test_the_turn_to_a_version_check_names_what_it_showed(tmp_path: Path, check: str, output: str,
                                                          said: str) -> None:
    view = postmortem_view(analyze_path(_session(tmp_path / "s.jsonl", [(check, output)], _INSTALL)))
    assert view["went_well"] == [f"{_LEAD}{said} [msg 3] (main)."]


def test_another_turn_keeps_its_kind(tmp_path: Path) -> None:
    view = postmortem_view(analyze_path(_session(tmp_path / "s.jsonl", [
        ("ssh gpu01 'cat /models/e3/config.json'", '{"draft_vocab_size": 32000}')], _INSTALL)))
    assert view["went_well"] == [f"{_LEAD}inspecting configs and checkpoints [msg 3] (main)."]
