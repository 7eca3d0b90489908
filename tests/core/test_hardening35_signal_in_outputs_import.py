"""A Ctrl-C or SIGTERM that landed while `spec-debug run` first imported the JUnit writer was
lost: the CLI then waited on the --junit FIFO until kill -9 (CI: 1 run in ~20 on a loaded
machine). xml.etree.ElementTree imports its C accelerator inside `try: ... except
ImportError: pass`; that accelerator links to pyexpat through PyCapsule_Import, which turns
any failure of the import it makes, the handler's KeyboardInterrupt included, into an
ImportError (CPython Objects/capsule.c), so ElementTree swallowed the interrupt. The writer
is now imported before the run, where the run's own signal handling holds.

The signal is sent by the CLI process itself at the exact moment: when pyexpat is imported
after the reports were written, or else on entering the FIFO wait, so the test is as
deterministic on an idle machine as on a loaded one. Through the real CLI, a real FIFO and
a real signal."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

_CLI_WITH_A_SIGNAL_AT_THE_IMPORT = textwrap.dedent(
    """
    import os, signal, sys

    import spec_debug.cli_run as cli_run
    import spec_debug.store as store

    reports_written = []
    signalled = []

    def interrupt_once():
        if not signalled:
            signalled.append(True)
            os.kill(os.getpid(), signal.SIGINT)

    real_write_reports = cli_run.write_reports

    def write_reports(*args, **kwargs):
        written = real_write_reports(*args, **kwargs)
        reports_written.append(True)
        return written

    cli_run.write_reports = write_reports

    class SignalWhilePyexpatIsImported:
        # Sends the signal from inside the import of pyexpat, where a user's Ctrl-C could land.
        def find_spec(self, name, path=None, target=None):
            if name == "pyexpat" and reports_written:
                interrupt_once()
            return None

    sys.meta_path.insert(0, SignalWhilePyexpatIsImported())

    real_write_fifo = store._write_fifo

    def write_fifo(path, data):
        interrupt_once()  # no import left to land in: the signal comes as the FIFO wait begins
        return real_write_fifo(path, data)

    store._write_fifo = write_fifo
    sys.argv = ["spec-debug", *sys.argv[1:]]
    from spec_debug.cli import main
    main()
    """
)


def test_a_signal_landing_in_the_junit_writers_first_import_is_honoured(tmp_path):
    script = tmp_path / "cli_with_a_signal.py"
    script.write_text(_CLI_WITH_A_SIGNAL_AT_THE_IMPORT)
    playbook = tmp_path / "p.yaml"
    playbook.write_text("name: p\nsteps:\n  - id: a\n    run: echo ok\n")
    junit = tmp_path / "junit.xml"
    os.mkfifo(junit)  # nobody reads it: only a signal ends the wait
    out = tmp_path / "runs"
    proc = subprocess.Popen([sys.executable, str(script), "run", str(playbook), "--host", "local", "--out", str(out),
                             "--junit", str(junit)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "COLUMNS": "400", "NO_COLOR": "1"})
    try:
        # Lost, the signal left the CLI waiting for a reader forever; honoured, it exits in
        # well under a second. 120 s: a loaded CI machine, not the expected time.
        _, stderr = proc.communicate(timeout=120)
    except subprocess.TimeoutExpired:
        proc.kill()
        _, stderr = proc.communicate()
        raise AssertionError(f"the signal was lost: the CLI still waited on the FIFO ({' '.join(stderr.split())})")
    said = " ".join(stderr.split())
    assert proc.returncode == 3, said
    (run_dir,) = out.iterdir()
    assert f"the JUnit XML {junit} was not written (only `spec-debug run --junit` writes it)" in said
    assert (run_dir / "report.md").is_file() and (run_dir / "report.html").is_file()
