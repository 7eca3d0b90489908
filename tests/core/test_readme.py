"""The README's playbook example and quickstart stay true."""

from __future__ import annotations

import re
from pathlib import Path

from tests.conftest import run_cli

README = Path(__file__).resolve().parents[2] / "README.md"


def test_readme_playbook_example_runs_and_finds_sd101(tmp_path):
    block = re.search(r"## A playbook in ten lines\n\n```yaml\n(.*?)```", README.read_text(), re.S).group(1)
    assert len(block.strip().splitlines()) <= 10
    playbook = tmp_path / "example.yaml"
    playbook.write_text(block)
    broken = run_cli("run", str(playbook), "--host", "local", "--out", str(tmp_path / "a"),
                     "--var", "cmdline=python -m sglang.launch_server --speculative-num-steps 1")
    assert broken.code == 1 and "SD101" in broken.stderr
    fixed = run_cli("run", str(playbook), "--host", "local", "--out", str(tmp_path / "b"),
                    "--var", "cmdline=python -m sglang.launch_server --speculative-num-steps 3")
    assert fixed.code == 0, fixed.stderr


def test_readme_quickstart_commands_are_the_ci_ones():
    text = README.read_text()
    assert 'python3 -m pip install "torch==2.13.0" -e ".[eagle3]" && spec-debug demo' in text
    assert "bash .ci/run" in text
    ci = (README.parent / ".ci" / "run").read_text()
    test_command = re.search(r"```bash\n(python3 -m pytest -q[^\n]*)\n```", text)
    assert test_command and ci.rstrip().endswith(test_command.group(1))
