"""torchrun's root-cause report behind a log collector's prefix on every line.

``kubectl logs --prefix`` puts "[pod/NAME/CONTAINER] " before each line, ``docker logs -t``
and ``kubectl logs --timestamps`` an RFC 3339 time (a different one each line),
``docker compose logs`` "SERVICE-1  | ". The ChildFailedError was read through the prefix, but
its "Root Cause (first observed failure):" block was not: the error was "ChildFailedError" with
no message, the SIGKILL that killed rank 3 (the OOM killer) lost.
"""

import pytest

from spec_debug.session.failures import extract_errors

# torch/distributed/elastic/multiprocessing/errors/__init__.py, ChildFailedError.format_msg
REPORT = '''\
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
  host      : train-0
  rank      : 3 (local_rank: 3)
  exitcode  : -9 (pid: 1234)
  error_file: <N/A>
  traceback : Signal 9 (SIGKILL) received by PID 1234
============================================================
'''


def _stamp(i):
    return f"2025-07-01T01:02:{i % 60:02d}.{123456789 + i}Z "


PREFIXES = {
    "kubectl --prefix": lambda i: "[pod/train-0/trainer] ",
    "docker logs -t": _stamp,
    "kubectl --prefix --timestamps": lambda i: "[pod/train-0/trainer] " + _stamp(i),
    "docker compose logs": lambda i: "trainer-1  | ",
    "docker compose logs -t": lambda i: "trainer-1  | " + _stamp(i),
}


@pytest.mark.parametrize("name", PREFIXES)
def test_the_root_cause_is_read_behind_a_log_prefix(name):
    prefix = PREFIXES[name]
    text = "".join(prefix(i) + line + "\n" for i, line in enumerate(REPORT.splitlines()))
    [err] = extract_errors(text, exit_code=1)
    assert (err.kind, err.exception) == ("signal", "SIGKILL")
    assert err.message == "rank 3 exitcode -9: Signal 9 (SIGKILL) received by PID 1234"


def test_a_report_whose_prefix_stops_is_cut_there():
    lines = REPORT.splitlines()
    cut = lines.index("Root Cause (first observed failure):") + 1
    text = "".join("[pod/train-0/trainer] " + line + "\n" for line in lines[:cut + 1])
    text += "".join(line + "\n" for line in lines[cut + 1:])  # another source's lines
    [err] = extract_errors(text, exit_code=1)
    assert err.exception.endswith("ChildFailedError") and err.message == ""
