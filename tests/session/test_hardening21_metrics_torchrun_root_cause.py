"""torchrun's ChildFailedError says why the rank died.

When a rank of a torchrun job dies, torchrun raises ChildFailedError with an empty message and
prints its report after it (torch/distributed/elastic/multiprocessing/errors/__init__.py,
ChildFailedError.format_msg): "Root Cause (first observed failure):", the rank, "exitcode  : -9"
and "traceback : Signal 9 (SIGKILL) received by PID 1234" (the kernel's OOM killer, a SpecForge
training run's usual end when the hidden states outgrow host memory). The error was
"ChildFailedError" with no message: the SIGKILL, the one fact to act on, was lost.
"""

from spec_debug.session.failures import extract_errors

HEAD = '''\
E1201 01:02:04.123000 1234 torch/distributed/elastic/multiprocessing/api.py:869] failed (exitcode: {code}) local_rank: 0 (pid: 1234) of binary: /usr/bin/python3
Traceback (most recent call last):
  File "/usr/local/bin/torchrun", line 8, in <module>
    sys.exit(main())
  File "/usr/local/lib/python3.10/dist-packages/torch/distributed/launcher/api.py", line 263, in launch_agent
    raise ChildFailedError(
torch.distributed.elastic.multiprocessing.errors.ChildFailedError: 
============================================================
scripts/train_eagle3.py FAILED
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


def test_a_rank_killed_by_a_signal_is_that_signal():
    [err] = extract_errors(HEAD.format(code=-9, said="Signal 9 (SIGKILL) received by PID 1234"), exit_code=1)
    assert (err.kind, err.exception) == ("signal", "SIGKILL")
    assert err.message == "rank 3 exitcode -9: Signal 9 (SIGKILL) received by PID 1234"


def test_a_rank_that_exited_names_its_rank_and_code():
    said = "To enable traceback see: https://pytorch.org/docs/stable/elastic/errors.html"
    [err] = extract_errors(HEAD.format(code=1, said=said), exit_code=1)
    assert err.kind == "traceback" and err.exception.endswith("ChildFailedError")
    assert err.message == "rank 3 exitcode 1"


def test_a_child_failed_error_without_its_report_is_left_as_it_is():
    cut = HEAD.format(code=1, said="x").split("=====")[0]
    [err] = extract_errors(cut, exit_code=1)
    assert err.exception.endswith("ChildFailedError") and err.message == ""
