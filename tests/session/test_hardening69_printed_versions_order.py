"""`python -c "import vllm, torch; print(vllm.__version__, torch.__version__)"` prints the two
versions bare, in the order the command names them ("0.10.1 2.7.1+cu126"). A bare version was
read only for a check of one package: for two, the analysis kept no version seen, and the
postmortem said "checking installed versions (torch, vllm)" without what it showed. The bare
versions are now the packages' in the command's order, where there are as many of them."""

from __future__ import annotations

from pathlib import Path

import pytest

from spec_debug.session import analyze_path
from spec_debug.session.version_checks import printed_modules
from spec_debug.session.versions_seen import printed_versions
from tests.session.test_hardening67_install_folder import _session


@pytest.mark.parametrize("command, output, seen", [
    ('python -c "import vllm, torch; print(vllm.__version__, torch.__version__)"', "0.10.1 2.7.1+cu126\n",
     [("vllm", "0.10.1"), ("torch", "2.7.1+cu126")]),
    ("python3 -c 'import torch, sglang; print(torch.__version__); print(sglang.__version__)'", "2.7.1\n0.4.6.post1\n",
     [("torch", "2.7.1"), ("sglang", "0.4.6.post1")]),
    ("docker exec sglang python3 -c 'import sglang as sgl, torch; print(torch.__version__, sgl.__version__)'",
     "/usr/lib/python3/dist-packages/x.py:1: UserWarning: old\n2.5.1 0.4.1\n", [("torch", "2.5.1"), ("sglang", "0.4.1")]),
])
def test_the_bare_versions_are_the_packages_in_order(tmp_path: Path, command: str, output: str,
                                                     seen: list[tuple[str, str]]) -> None:
    analysis = analyze_path(_session(tmp_path / "s.jsonl", [(command, output, "/root")]))
    assert [(v.package, v.version) for v in analysis.versions_seen] == seen


def test_as_many_versions_as_packages_or_none() -> None:
    command = "python -c 'import torch, sglang; print(torch.__version__, sglang.__version__, torch.version.cuda)'"
    order = printed_modules(command)
    assert order == ["torch", "sglang"]
    assert printed_versions(set(order), "2.7.1 0.4.6 12.6\n", True, order) == {}  # the CUDA's too: whose is which?
    assert printed_versions(set(order), "2.7.1\n", True, order) == {}
    assert printed_versions(set(order), "torch 2.7.1\nsglang 0.4.6\n", True, order) == {"torch": "2.7.1", "sglang": "0.4.6"}
