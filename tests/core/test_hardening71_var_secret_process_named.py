"""A process a step left running is named by its command line cut at 80 characters, before the
run masks it (Run._clean): a `--var db_password=...` value (no pattern knows it) across the cut
left its first part, "aaa… ZebraCactu…", on the step's line, in run.json and in both reports.
Recorded with a real `--host local` run. The cut now moves to the value's start
(redact.cut_outside_secret, with the run's values: redact.known_secret_values).
"""

from __future__ import annotations

from spec_debug.redact import known_secret_values
from spec_debug.runner.attempt import killed_words
from tests.conftest import only_run, run_cli

SECRET = "ZebraCactusMoonlight77"
PART = SECRET[:6]
PAD = "a" * 30  # the command line shown is "python3 -c import time; time.sleep(9) " + PAD + " " + SECRET: 69 + 22


def test_a_background_process_named_with_the_value_across_the_cut(tmp_path):
    playbook = tmp_path / "p.yaml"
    playbook.write_text(f"""\
name: p
vars:
  db_password: ''
steps:
  - id: a
    run: python3 -c "import time; time.sleep(9)" {PAD} {{{{ db_password }}}} &
""")
    out = tmp_path / "runs"
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(out), "--var", f"db_password={SECRET}")
    run_dir, record = only_run(out)
    assert result.code == 0, result.stderr
    message = record["steps"][0]["message"]
    assert f"(python3 -c import time; time.sleep(9) {PAD} …), still writing to this step's" in message, message
    for text in ((run_dir / "run.json").read_text(), (run_dir / "report.md").read_text(),
                 (run_dir / "report.html").read_text(), result.stderr):
        assert PART not in text


def test_a_process_left_after_sigkill_named_with_the_value_across_the_cut():
    command = "x" * 70 + " " + SECRET
    assert killed_words([(7, "D", command)]).startswith(f"pid 7 ({'x' * 70} {SECRET[:8]}…, state D)")  # as before
    with known_secret_values((SECRET,)):
        assert killed_words([(7, "D", command)]).startswith(f"pid 7 ({'x' * 70} …, state D)")
