"""The live progress on stderr when it is no terminal (a CI log, `2>run.log`, an ssh session
without a tty): rich folds a printed line at the console width, 80 columns there, so a step's
note broke inside the path or expression it quotes. A run folder removed mid-run (a cleanup
job) printed "error b (0.13 s) interrupted: cannot write \\n/tmp/.../run.json: No such \\nfile
or directory", and a grep or a paste of the path found nothing. The host's error lines were
already printed unfolded (soft_wrap); now the step and finding lines are too."""

from __future__ import annotations

import io

from rich.console import Console

from spec_debug.cli_progress import ConsoleReporter
from spec_debug.playbook.loader import load_playbook_text
from spec_debug.record import Finding, StepRecord

RUN_JSON = "/srv/spec-debug/runs/20261202T041828771Z-perf_regression-a3eb7faf/run.json"
TITLE = ("The acceptance of the production draft model on gpu01 is not recorded by "
         "facts.observed_accept_length_for_the_production_draft_model")


def test_a_step_note_and_its_finding_are_one_line_each_in_an_80_column_log():
    step = load_playbook_text("name: narrow\nsteps:\n  - id: accept\n    run: echo 2.1\n").steps[0]
    stderr = io.StringIO()
    # As cli_common's err_console, on a stream that is no terminal (rich then uses 80 columns).
    reporter = ConsoleReporter(Console(file=stderr, emoji=False, width=80), spinner=False)
    result = StepRecord(id="accept", host="local", status="error", duration_s=0.13,
                        message=f"interrupted: cannot write {RUN_JSON}: No such file or directory")
    reporter.step_finished("local", step, result, [Finding(code="SD998", severity="warning", title=TITLE)])
    lines = stderr.getvalue().splitlines()
    assert lines[0].strip() == f"error accept (0.13 s) interrupted: cannot write {RUN_JSON}: No such file or directory"
    assert lines[1].strip() == f"SD998 {TITLE}" and len(lines) == 2
