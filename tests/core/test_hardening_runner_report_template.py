"""A --template written from a guess at the names (`run.steps`, as run.json's own top level
reads) failed with "'run' is undefined" and nothing else: the author had to read
spec_debug/report/views.py to learn that the record is `record`. The error now names them."""

from __future__ import annotations

import pytest

from tests.conftest import run_cli


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory):
    folder = tmp_path_factory.mktemp("run")
    playbook = folder / "p.yaml"
    playbook.write_text("name: small\nsteps:\n  - id: hello\n    run: echo hello\n")
    assert run_cli("run", str(playbook), "--host", "local", "--out", str(folder / "runs")).code == 0
    return next((folder / "runs").iterdir())


@pytest.mark.parametrize("guess", ["run", "steps"])
def test_undefined_top_level_name_names_the_ones_there_are(tmp_path, run_dir, guess):
    template = tmp_path / "mine.md.j2"
    template.write_text(f"# report\n{{% for s in {guess}.steps if {guess} is mapping %}}{{{{ s }}}}{{% endfor %}}{{{{ {guess}.x }}}}\n")
    result = run_cli("report", str(run_dir), "--template", str(template))
    assert result.code == 2, result.stderr
    assert "Traceback" not in result.stderr
    assert f"{template}:2 failed: '{guess}' is undefined" in result.stderr, result.stderr
    hint = result.stderr.split("hint:", 1)[1] if "hint:" in result.stderr else ""
    assert "`record`" in hint and "findings_sorted" in hint, result.stderr


def test_a_working_template_with_record_still_renders(tmp_path, run_dir):
    template = tmp_path / "mine.md.j2"
    template.write_text("{% for s in record.steps %}{{ s.id }}={{ s.status }}\n{% endfor %}")
    result = run_cli("report", str(run_dir), "--template", str(template))
    assert result.code == 0 and "hello=passed" in result.stdout, result.stderr
