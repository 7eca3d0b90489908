"""`pip show sglang` said 0.4.1; the agent upgraded (`pip install -U sglang==0.4.6`), relaunched,
throughput rose 60.5 -> 120.3 tok/s, then went back (`pip install sglang==0.4.1`) and it fell
again. The postmortem told the upgrade as the fix and, under what went well, "the change was
measured again": a reverts check knew sed, git, backups and launch flags, not installs. An
install that puts back the version the package had before (as a check showed it, or an earlier
install pinned it) now reverts the upgrade."""

from __future__ import annotations

from pathlib import Path

import pytest

from spec_debug.session import analyze_path
from spec_debug.session.postmortem import postmortem_view
from spec_debug.session.version_checks import pinned_versions
from tests.session.test_hardening67_install_folder import _BENCH, _BENCH_CMD, _session

_LAUNCH = "pkill -f sglang; python -m sglang.launch_server --model-path m --speculative-algorithm EAGLE3 &"
_RISE = ("Throughput rose from 60.5 to 120.3 tok/s [msg 10] after `pip install -U sglang==0.4.6` [msg 5], "
         "relaunching the server with `--speculative-algorithm EAGLE3` [msg 7]")


def _view(tmp_path: Path, first: tuple[str, str], back: str) -> dict:
    return postmortem_view(analyze_path(_session(tmp_path / "s.jsonl", [
        (*first, "/root"), (_BENCH_CMD, _BENCH.format("60.5"), "/root"),
        ("pip install -U sglang==0.4.6", "Successfully installed sglang-0.4.6", "/root"), (_LAUNCH, "", "/root"),
        (_BENCH_CMD, _BENCH.format("120.3"), "/root"),
        (back, "Successfully installed sglang-0.4.1", "/root"), (_LAUNCH, "", "/root"),
        (_BENCH_CMD, _BENCH.format("61.0"), "/root")])))


def test_pinned_versions() -> None:
    assert pinned_versions("pip install -U 'sglang[all]==0.4.6.post1' torch>=2.5 flashinfer_python==0.2.0") == \
        {"sglang": "0.4.6.post1", "flashinfer-python": "0.2.0"}
    assert pinned_versions("python -m pip install sglang>=0.4.6") == {}
    assert pinned_versions("pip show sglang==0.4.1") == {}


@pytest.mark.parametrize("first", [
    ("pip show sglang", "Name: sglang\nVersion: 0.4.1"),
    ("pip install sglang==0.4.1", "Successfully installed sglang-0.4.1"),
])
def test_going_back_to_the_old_version_reverts_the_upgrade(tmp_path: Path, first: tuple[str, str]) -> None:
    view = _view(tmp_path, first, "pip install sglang==0.4.1")
    assert view["resolution"] == [f"{_RISE}; the change at [msg 5] was reverted at [msg 11]."]
    assert not any(line.startswith("The change was measured again") for line in view["went_well"])


@pytest.mark.parametrize(("first", "back"), [
    (("pip show sglang", "Name: sglang\nVersion: 0.4.1"), "pip install sglang==0.4.7"),  # onwards, not back
    (("pip show vllm", "Name: vllm\nVersion: 0.4.1"), "pip install sglang==0.4.1"),  # another package's version
    (("nvidia-smi", "GPU 0: H100"), "pip install sglang==0.4.1"),  # the version before is unknown
])
def test_another_install_is_no_revert(tmp_path: Path, first: tuple[str, str], back: str) -> None:
    view = _view(tmp_path, first, back)
    assert view["resolution"] == [f"{_RISE}."]
    assert view["went_well"][-1] == f"The change was measured again: t{_RISE[1:]}."
