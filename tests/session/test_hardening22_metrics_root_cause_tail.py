"""torchrun's root-cause report alone, as ``tail`` of a job's log shows it.

torchrun prints its ChildFailedError traceback, then the report, "Root Cause (first observed
failure):" and the rank's fields last (torch/distributed/elastic/multiprocessing/errors/
__init__.py, ChildFailedError.format_msg). ``tail -n 15 train.log`` shows only the report, and
exits 0: no error was read at all (after a failed status, the rule of dashes was the message),
though rank 3 was killed by the OOM killer.
"""

import pytest

from spec_debug.session.failures import extract_errors

REPORT = '''\
------------------------------------------------------------
Failures:
  <NO_OTHER_FAILURES>
------------------------------------------------------------
Root Cause (first observed failure):
[0]:
  time      : 2025-07-01_01:02:04
  host      : node1
  rank      : 3 (local_rank: 3)
  exitcode  : {code} (pid: 1234)
  error_file: <N/A>
  traceback : {said}
============================================================
'''
SIGKILL = REPORT.format(code=-9, said="Signal 9 (SIGKILL) received by PID 1234")
EXITED = REPORT.format(code=1, said="To enable traceback see: https://pytorch.org/docs/stable/elastic/errors.html")


@pytest.mark.parametrize("exit_code", [0, 1, None])
def test_the_report_alone_is_the_ranks_death(exit_code):
    [err] = extract_errors(SIGKILL, exit_code)
    assert (err.kind, err.exception) == ("signal", "SIGKILL")
    assert err.message == "rank 3 exitcode -9: Signal 9 (SIGKILL) received by PID 1234"


def test_a_rank_that_exited_names_its_rank_and_code():
    [err] = extract_errors(EXITED, 0)
    assert err.exception.endswith("ChildFailedError") and err.message == "rank 3 exitcode 1"


def test_behind_kubectls_prefix():
    text = "".join("[pod/train-0/trainer] " + line + "\n" for line in SIGKILL.splitlines())
    [err] = extract_errors(text, 0)
    assert (err.kind, err.exception) == ("signal", "SIGKILL")


def test_the_words_without_the_fields_are_no_error():
    assert extract_errors("grep found 'Root Cause (first observed failure):' in errors/__init__.py\n", 0) == []
