"""Commands printing to a stdout that cannot encode their text (an ASCII locale:
`PYTHONIOENCODING=ascii`, a serial console) died in a UnicodeEncodeError traceback at the first
em dash. A document (`report`, like `analyze`) now goes out as UTF-8 bytes, what `> report.md`
wants; tables and messages are escaped."""

from __future__ import annotations

from tests.conftest import only_run, run_cli


def test_report_to_an_ascii_stdout_is_written_as_utf8(tmp_path):
    out = tmp_path / "runs"
    assert run_cli("run", "host_smoke", "--host", "local", "--out", str(out)).code in (0, 1)
    run_dir, _ = only_run(out)
    result = run_cli("report", str(run_dir), env={"PYTHONIOENCODING": "ascii"})
    assert result.code == 0, result.stderr
    assert "Traceback" not in result.stderr
    assert "\u2014" in result.stdout  # the report's em dash, as UTF-8
    assert "host_smoke" in result.stdout


def test_every_command_that_prints_tables_survives_an_ascii_stdout(tmp_path):
    for args in (("findings", "SD201"), ("findings",), ("explain", "perf_regression")):
        result = run_cli(*args, env={"PYTHONIOENCODING": "ascii"})
        assert result.code == 0 and "Traceback" not in result.stderr, (args, result.stderr[-500:])
