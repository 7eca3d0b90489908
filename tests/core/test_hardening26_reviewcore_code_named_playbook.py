"""A playbook file named like a finding code (./SD101.yaml), given without its suffix.

3fcda31 made `run SD101` say that SD101 is a finding code (`spec-debug findings SD101`); with
./SD101.yaml there, its author meant that file, and the hint sent them to the catalog. The
file by its full name still loads, and any name with a NAME.yaml beside it gets that file.
"""

from __future__ import annotations

import pytest

from spec_debug.errors import PlaybookError
from spec_debug.playbook.loader import load_playbook

PLAYBOOK = "name: p\nsteps:\n  - id: a\n    run: echo hi\n"


@pytest.mark.parametrize("name", ["SD101", "gpu_check"])
def test_a_name_with_its_yaml_file_beside_it_is_pointed_at_the_file(tmp_path, monkeypatch, name):
    monkeypatch.chdir(tmp_path)
    (tmp_path / f"{name}.yaml").write_text(PLAYBOOK, encoding="utf-8")
    assert load_playbook(f"{name}.yaml").playbook.name == "p"
    with pytest.raises(PlaybookError) as raised:
        load_playbook(name)
    assert raised.value.hint == f"did you mean '{name}.yaml'? a playbook file is named with its suffix", raised.value


def test_a_code_with_no_file_beside_it_is_still_named_a_finding_code(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(PlaybookError) as raised:
        load_playbook("SD101")
    assert raised.value.hint.startswith("SD101 is a finding code: `spec-debug findings SD101` explains it")
