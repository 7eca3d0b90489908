"""`spec-debug explain perf_regression hidden_layuot` (a playbook, then one of its steps with a
slip) was refused with the rule for quoting a concept ("quote a concept of several words
(spec-debug explain 'accept length')"), which says nothing of the step that was meant. The hint
now names the step of that spelling (or the one the word starts), else lists the playbook's
steps, each with the line to paste. The error line itself and exit 2 are as before."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import run_cli


def test_a_misspelt_step_of_a_shipped_playbook_is_named(tmp_path: Path) -> None:
    result = run_cli("explain", "perf_regression", "hidden_layuot", cwd=tmp_path)
    assert result.code == 2
    assert result.stderr.splitlines() == [
        "error: explain takes one playbook, code or concept; got also: hidden_layuot",
        "  hint: the step 'hidden_layout'? `spec-debug explain perf_regression hidden_layout`"]
    assert run_cli("explain", "perf_regression", "hidden_layout", cwd=tmp_path).code == 0


def test_the_start_of_one_step_names_it(tmp_path: Path) -> None:
    result = run_cli("explain", "host_smoke", "gpu", cwd=tmp_path)
    assert result.stderr.splitlines()[-1] == "  hint: the step 'gpu_busy'? `spec-debug explain host_smoke gpu_busy`"


def test_a_word_near_no_step_lists_the_steps(tmp_path: Path) -> None:
    result = run_cli("explain", "host_smoke", "extra", cwd=tmp_path)
    assert result.code == 2
    assert result.stderr.splitlines()[-1] == (
        "  hint: host_smoke has no step 'extra'; its steps: host_info, gpu_busy, free_disk "
        "(`spec-debug explain host_smoke host_info` explains one)")


def test_a_playbook_file_in_a_folder_with_a_space(tmp_path: Path) -> None:
    (tmp_path / "my dir").mkdir()
    (tmp_path / "my dir" / "mine.yaml").write_text(
        "name: mine\nsteps:\n  - id: first\n    run: echo 1\n  - id: second\n    run: echo 2\n", encoding="utf-8")
    result = run_cli("explain", "my dir/mine.yaml", "firts", cwd=tmp_path)
    assert result.stderr.splitlines()[-1] == "  hint: the step 'first'? `spec-debug explain 'my dir/mine.yaml' first`"


def test_words_after_no_playbook_keep_their_hints(tmp_path: Path) -> None:
    result = run_cli("explain", "num", "stesp", cwd=tmp_path)
    assert result.stderr.splitlines()[-1] == "  hint: the concept 'num steps'? `spec-debug explain 'num steps'`"


def test_a_playbook_that_cannot_be_read_says_its_own_error(tmp_path: Path) -> None:
    # (was "got also: extra" and the rule for quoting a concept)
    (tmp_path / "broken.yaml").write_text("name: [\n", encoding="utf-8")
    broken = run_cli("explain", "broken.yaml", "extra", cwd=tmp_path)
    assert broken.code == 2
    assert broken.stderr.splitlines()[0] == (
        "error: broken.yaml:1:8: YAML syntax error: expected the node content, but found '<stream end>'")
    assert broken.stderr == run_cli("explain", "broken.yaml", cwd=tmp_path).stderr
