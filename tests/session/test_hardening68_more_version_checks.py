"""`conda list sglang` (conda's `conda list [regex]`) and `python3 -c "import torch, sglang;
print(sglang.__version__)"` print the installed SGLang as `pip show sglang` does, but named no
package: after a failed EAGLE-3 launch the turn to them was no pivot, distill dropped the check
that decided the upgrade ("nothing to distill"), and the postmortem could not say what it
showed. Both now name the package they print (an `import X as Y` too)."""

from __future__ import annotations

from pathlib import Path

import pytest

from spec_debug.session import analyze_path
from spec_debug.session.distill import distill_playbook
from spec_debug.session.postmortem import postmortem_view
from spec_debug.session.version_checks import checked_packages
from tests.session.test_hardening65_distill_version_checks import _session


def test_the_packages_each_check_names() -> None:
    assert checked_packages("conda list sglang") == {"sglang"}
    assert checked_packages("mamba list -n serve 'vllm'") == {"vllm"}
    assert checked_packages("conda list -n sglang") == set()  # an environment's name, no package
    assert checked_packages('python3 -c "import torch, sglang; print(sglang.__version__)"') == {"sglang"}
    assert checked_packages('python3 -c "import sglang as sgl; print(sgl.__version__)"') == {"sglang"}
    assert checked_packages('python3 -c "import sglang; print(torch.__version__)"') == set()  # torch not imported


@pytest.mark.parametrize(("check", "output"), [
    ("ssh gpu01 'conda list sglang'", "# Name   Version  Build  Channel\nsglang   0.4.1    pypi_0  pypi"),
    ("ssh gpu01 'python3 -c \"import torch, sglang; print(sglang.__version__)\"'", "0.4.1"),
])
def test_the_check_is_the_turn_and_the_step(tmp_path: Path, check: str, output: str) -> None:
    a = analyze_path(_session(tmp_path / "s.jsonl", [(check, output)], "ssh gpu01 'pip install -U sglang==0.4.6'"))
    assert [(p.seq, p.trigger_seq) for p in a.pivots] == [(3, 2)]
    assert postmortem_view(a)["went_well"][0].endswith(
        "launching the server → checking installed versions (sglang 0.4.1) [msg 3] (main).")
    assert [s["run"] for s in distill_playbook(a)["steps"]] == [check[len("ssh gpu01 '"):-1]]
