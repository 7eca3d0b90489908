"""A size written with an exponent (`artifact_limit: 1e6`, `--artifact-limit 5e8`) is refused, as
GNU coreutils refuses `head -c 1e6`, with the bytes it stands for in the message.

It said only "'1e6' is not a size: write bytes or a number with a unit, e.g. 512M or 2GiB"
(YAML 1.1 reads 1e6 as text), while `timeout: 1e3` is told "write timeout: 1000"."""

from __future__ import annotations

import pytest

from spec_debug.playbook.models import parse_size
from tests.conftest import run_cli


def test_a_step_size_with_an_exponent_names_its_bytes(tmp_path):
    playbook = tmp_path / "f.yaml"
    playbook.write_text("name: f\nsteps:\n  - id: a\n    run: echo hi\n    artifact_limit: 1e6\n")
    result = run_cli("playbooks", "validate", str(playbook))
    assert result.code == 2, result.stdout + result.stderr
    said = " ".join(result.stderr.split())
    assert ("f.yaml:5:21: '1e6' is not a size: write 1000000 (bytes), or a number with a unit, e.g. 512M or 2GiB "
            "(at steps[0].artifact_limit)") in said, said


def test_the_artifact_limit_option_with_an_exponent_names_its_bytes(tmp_path):
    playbook = tmp_path / "f.yaml"
    playbook.write_text("name: f\nsteps:\n  - id: a\n    run: echo hi\n")
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(tmp_path / "runs"), "--artifact-limit", "2.5e8")
    assert result.code == 2, result.stdout + result.stderr
    assert "'2.5e8' is not a size: write 250000000 (bytes)" in " ".join(result.stderr.split()), result.stderr


@pytest.mark.parametrize("written", ["1e-3", "1.5e0", "1e400", "abc"])
def test_other_texts_keep_the_plain_refusal(written):
    with pytest.raises(ValueError) as refused:
        parse_size(written)
    assert str(refused.value) == f"{written!r} is not a size: write bytes or a number with a unit, e.g. 512M or 2GiB"
