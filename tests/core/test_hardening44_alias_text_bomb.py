"""An alias bomb by text, not by count: one long value anchored once and aliased many times.

`big: &big "<1 MB>"` and a list of 100,000 `*big` stays under the 200,000-values bound yet
stands for 100 GB of text: the loader scanned every copy (its NUL and comment checks) for
minutes with no word, before any step. It is refused at the alias that passes the bound, with
its line and column, as the count bomb is."""

from __future__ import annotations

from spec_debug.playbook.yaml_nodes import MAX_TEXT
from tests.conftest import run_cli


def _playbook(value_chars: int, copies: int) -> str:
    value = "x" * value_chars
    aliases = ", ".join(["*big"] * copies)
    return (f'name: text_bomb\nvars:\n  big: &big "{value}"\n  many: [{aliases}]\n'
            "steps:\n  - id: s\n    run: echo hi\n")


def test_a_long_value_aliased_past_the_text_bound_is_refused_with_its_line(tmp_path):
    copies = MAX_TEXT // 100_000 + 1
    path = tmp_path / "bomb.yaml"
    path.write_text(_playbook(100_000, copies), encoding="utf-8")
    result = run_cli("playbooks", "validate", str(path))
    assert result.code == 2, result.stderr
    first = result.stderr.splitlines()[0]
    aliased = -(-(MAX_TEXT + 1) // 100_000) - 1  # the alias that passes the bound, the anchor's own text not counted
    assert first.startswith(f"error: {path}:4:")
    assert first.endswith(f"the playbook expands to more than {MAX_TEXT // 2**20} MiB of text "
                          f"({aliased * 100_000} characters of it through YAML aliases)")
    assert "hint: write the repeated parts out, or use fewer aliases of the long value" in result.stderr


def test_a_var_file_of_a_long_aliased_value_is_refused_too(tmp_path, write_playbook):
    playbook = write_playbook("name: p\nvars:\n  big: ''\n  many: []\nsteps:\n  - id: s\n    run: echo hi\n")
    var_file = tmp_path / "vars.yaml"
    value = "x" * 100_000
    var_file.write_text(f'big: &big "{value}"\nmany: [{", ".join(["*big"] * (MAX_TEXT // 100_000 + 1))}]\n', encoding="utf-8")
    result = run_cli("run", str(playbook), "--host", "local", "--var-file", str(var_file), "--out", str(tmp_path / "runs"))
    assert result.code == 2, result.stderr
    assert "the var file expands to more than" in result.stderr and "MiB of text" in result.stderr
    assert not (tmp_path / "runs").exists() or not any((tmp_path / "runs").iterdir())


def test_a_script_aliased_into_every_step_still_loads(tmp_path):
    script = "echo " + "y" * 20_000
    steps = "".join(f"  - id: s{i}\n    run: *script\n" for i in range(1, 200))
    path = tmp_path / "ok.yaml"
    path.write_text(f"name: shared\nsteps:\n  - id: s0\n    run: &script {script}\n{steps}", encoding="utf-8")
    result = run_cli("playbooks", "validate", str(path))
    assert result.code == 0, result.stderr
    assert "(200 steps)" in result.stdout + result.stderr


def test_a_long_value_merged_past_the_text_bound_is_refused(tmp_path):
    value = "x" * 1_000_000
    merges = "".join(f"  c{i}: {{<<: *m}}\n" for i in range(MAX_TEXT // 1_000_000 + 2))
    path = tmp_path / "merged.yaml"
    path.write_text(f'name: merged\nvars:\n  m: &m {{s: "{value}"}}\n{merges}steps:\n  - id: s\n    run: echo hi\n', encoding="utf-8")
    result = run_cli("playbooks", "validate", str(path))
    assert result.code == 2, result.stderr
    assert result.stderr.splitlines()[0].endswith(
        f"the playbook expands to more than {MAX_TEXT // 2**20} MiB of text through YAML merge keys (at vars.c32.s)")
