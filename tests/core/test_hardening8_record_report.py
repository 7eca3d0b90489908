"""The run folder and the incident report, with what real runs put in them.

A benchmark that failed measures NaN tok/s (0/0) and an accuracy printed as a percentage
(74.2) is not a fraction: drawn as they came, the report's bars had width "nan" and one
reached 7,000 px up over the page. And `--out report.md` (the -o habit of other tools) said
only "File exists".
"""

from __future__ import annotations

import re

from tests.conftest import run_cli

BENCH = """\
name: bench_numbers
steps:
  - id: bench
    run: |
      echo '{"measured_tok_s": NaN, "baseline_tok_s": 90.1, "predicted_tok_s": -1, "target_acceptance": [0.74, 74.2, NaN, 0.31]}'
    capture:
      - {json: measured_tok_s, name: measured_tok_s}
      - {json: baseline_tok_s, name: baseline_tok_s}
      - {json: predicted_tok_s, name: predicted_tok_s}
      - {json: target_acceptance, name: target_acceptance}
"""


def test_numbers_a_chart_cannot_draw_stay_in_the_facts_and_out_of_the_svg(tmp_path, write_playbook):
    out = tmp_path / "runs"
    result = run_cli("run", str(write_playbook(BENCH)), "--host", "local", "--out", str(out))
    assert result.code == 0, result.stderr
    html = next(out.iterdir()).joinpath("report.html").read_text()

    numbers = [float(v) for v in re.findall(r'\b(?:x|y|width|height)="([^"]*)"', html)]  # float("nan") parses too
    assert numbers and all(0 <= n <= 1000 for n in numbers), sorted(numbers)[:3] + sorted(numbers)[-3:]
    # Throughput: the measured value is not a number, so there is no bar chart to draw.
    assert "Decode throughput" not in html
    # Acceptance: positions 0 and 3 are bars, 1 (a percentage) and 2 (NaN) keep their place.
    acceptance = html[html.index('aria-label="acceptance per draft position"'):html.index("</svg>")]
    assert re.findall(r">(0\.\d\d|n/a)</text>", acceptance) == ["0.74", "n/a", "n/a", "0.31"]
    # The facts table still shows every value as captured.
    assert "nan" in html.split("<h2>Facts</h2>")[1] and "74.2" in html.split("<h2>Facts</h2>")[1]


def test_an_out_path_that_is_a_file_says_so(tmp_path, write_playbook):
    playbook = write_playbook("name: p\nsteps:\n  - id: s\n    run: echo hi\n")
    (tmp_path / "report.md").write_text("an earlier report\n")
    for out in ("report.md", "report.md/runs"):
        result = run_cli("run", str(playbook), "--host", "local", "--out", str(tmp_path / out))
        message = " ".join(result.stderr.split())
        assert result.code == 2 and "Traceback" not in result.stderr, message
        assert f"{tmp_path / 'report.md'} is a file, not a folder" in message, message
        assert "--out names the folder that holds the run folders" in message
    assert (tmp_path / "report.md").read_text() == "an earlier report\n"


def test_a_step_summary_file_that_is_not_there_does_not_change_the_verdict(tmp_path, write_playbook):
    # GITHUB_STEP_SUMMARY reaches spec-debug through the environment (a container started by
    # the workflow, act, an ssh session): its file missing made every run exit 3, "aborted",
    # before the verdict line.
    playbook = write_playbook("name: p\nsteps:\n  - id: gpu\n    run: exit 3\n")
    out = tmp_path / "runs"
    summary = tmp_path / "not-mounted" / "step_summary.md"
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(out), env={"GITHUB_STEP_SUMMARY": str(summary)})
    message = " ".join(result.stderr.split())
    assert result.code == 1, message  # the error finding's exit code, as without the variable
    assert f"warning: cannot append to GITHUB_STEP_SUMMARY {summary}: No such file or directory" in message
    assert "FAILED: 1 error(s)" in message
    run_dir = next(out.iterdir())
    assert {p.name for p in run_dir.iterdir()} >= {"run.json", "report.md", "report.html"}


def test_report_on_the_runs_folder_names_the_latest_run(tmp_path, write_playbook):
    # The on-call types `spec-debug report runs` (the folder --out wrote into), not a run.
    playbook = write_playbook("name: p\nsteps:\n  - id: s\n    run: echo hi\n")
    out = tmp_path / "runs"
    for _ in range(2):
        assert run_cli("run", str(playbook), "--host", "local", "--out", str(out)).code == 0
    latest = sorted(p.name for p in out.iterdir())[-1]
    result = run_cli("report", str(out))
    message = " ".join(result.stderr.split())
    assert result.code == 2 and "Traceback" not in result.stderr
    assert f"no run record at {out / 'run.json'}" in message
    assert f"{out} holds 2 run(s); the latest: spec-debug report {out / latest}" in message


def test_out_and_junit_written_with_an_equals_sign_go_to_the_home_folder(tmp_path, write_playbook):
    # `--out=~/incident-runs`: the shell expands ~ only at the start of a word, so the path
    # arrived as typed and a folder named "~" appeared in the current one.
    playbook = write_playbook("name: p\nsteps:\n  - id: s\n    run: echo hi\n")
    home, cwd = tmp_path / "home", tmp_path / "work"
    home.mkdir()
    cwd.mkdir()
    result = run_cli("run", str(playbook), "--host", "local", "--out=~/incident-runs", "--junit=~/ci/junit.xml",
                     cwd=cwd, env={"HOME": str(home)})
    assert result.code == 0, result.stderr
    assert list(cwd.iterdir()) == []
    assert (home / "ci" / "junit.xml").is_file()
    (run_dir,) = (home / "incident-runs").iterdir()
    assert (run_dir / "run.json").is_file()


def test_a_run_where_every_step_was_skipped_is_not_called_clean(tmp_path, write_playbook):
    # Run without the var its steps need, a playbook checked nothing and the report said
    # "Clean: no error or warning findings".
    playbook = write_playbook("""\
name: server_log_checks
vars:
  server_log: ""
steps:
  - id: accept_len
    requires: [server_log]
    run: |
      grep -o 'accept len: [0-9.]*' {{ server_log }} | tail -1
  - id: oom
    requires: [server_log]
    run: grep -c 'CUDA out of memory' {{ server_log }}
""")
    out = tmp_path / "runs"
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(out))
    assert result.code == 0, result.stderr
    assert "nothing was checked: every step was skipped" in " ".join(result.stderr.split())
    report = next(out.iterdir()).joinpath("report.md").read_text()
    assert ("> **Verdict:** Nothing was checked: all 2 step(s) were skipped "
            "(skipped: provide --var server_log=... to run this step).") in report
    assert "Clean" not in report
