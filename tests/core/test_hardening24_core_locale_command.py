"""A step whose command holds non-ASCII text (`echo "Prüfung ✓"`, a model path in Japanese) run
on `--host local` by a controller whose locale is not UTF-8: a Latin-1 or ASCII LC_CTYPE with
Python's UTF-8 mode off (PYTHONUTF8=0, as some CI images and old RHEL hosts set it). Popen
encoded the command in the locale, and the host failed as 'internal error: UnicodeEncodeError'
before the step ran. The command is the playbook's UTF-8 bytes now, as an SSH host gets it.
Through the real CLI, with the real environment variables."""

from __future__ import annotations

import json
import os
import subprocess
import sys


def test_a_non_ascii_command_runs_under_an_ascii_locale(tmp_path):
    (tmp_path / "p.yaml").write_text('name: locale\nsteps:\n  - id: greet\n    title: "Prüfe ✓"\n'
                                     '    run: echo "Prüfung ✓ 日本"\n', encoding="utf-8")
    env = {**os.environ, "LANG": "C", "LC_ALL": "C", "PYTHONUTF8": "0", "PYTHONCOERCECLOCALE": "0", "COLUMNS": "400"}
    env.pop("PYTHONIOENCODING", None)
    proc = subprocess.run([sys.executable, "-m", "spec_debug", "run", "p.yaml", "--host", "local"], capture_output=True,
                          cwd=tmp_path, timeout=180, env=env)
    said = proc.stdout.decode("ascii", "replace") + proc.stderr.decode("ascii", "replace")
    assert proc.returncode == 0, said
    assert "UnicodeEncodeError" not in said and "internal error" not in said
    [record] = (tmp_path / "runs").glob("*/run.json")
    data = json.loads(record.read_text(encoding="utf-8"))
    assert data["hosts"][0]["status"] != "error", data["hosts"][0]
    assert "Prüfung ✓ 日本" in json.dumps(data, ensure_ascii=False)
