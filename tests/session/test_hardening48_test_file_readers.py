"""analyze: reading, staging or listing a test file is not running tests.

``cat tests/test_export.py``, ``head -50 /tmp/test_drafter_standalone.py`` on the GPU host and
``git add tests/test_export_eagle3.py && git commit ...`` were each "run_test" because the line
named a ``test_*.py``: a phase of reading was titled "Running tests", and the commit of a fix
counted as a test run. The kind is now the test's only where a program runs it.
"""

from __future__ import annotations

import pytest

from spec_debug.session.shell import categorize


@pytest.mark.parametrize(("command", "kind"), [
    ("cat tests/test_export.py", "read_source"),
    ("grep -n d2t tests/test_export_eagle3.py", "read_source"),
    ("ssh gpu01 'head -50 /tmp/test_drafter_standalone.py'", "read_source"),
    ("git add tools/export_eagle3.py tests/test_export_eagle3.py && git commit -q -m 'export: d2t offsets'", "other"),
])
def test_naming_a_test_file_runs_no_test(command, kind):
    assert categorize(command) == kind


@pytest.mark.parametrize("command", [
    "python -m pytest -q tests/test_export_eagle3.py",
    "pytest -x",
    "ssh root@gpu01 '~/ml-env/bin/python /tmp/test_drafter_standalone.py'",
    "cd /work && timeout 600 python tests/test_drafter.py 2>&1 | tail -20",
])
def test_running_one_still_is(command):
    assert categorize(command) == "run_test"
