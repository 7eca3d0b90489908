"""torchrun's report of a rank that wrote an error file (the @record decorator): "  traceback : "
then the rank's own traceback with every later line indented two more spaces (torch/distributed/
elastic/multiprocessing/errors/__init__.py, _format_failure: "\\n" replaced by "\\n  "), frames at
four spaces and the exception line at two. The exception line was read as one more indented
frame line: "traceback without an exception line (truncated output)" and the rank's error lost."""

import pytest

from spec_debug.session.failures import extract_errors

_REPORT = """Traceback (most recent call last):
  File "/usr/local/bin/torchrun", line 8, in <module>
    sys.exit(main())
  File "/usr/local/lib/python3.12/dist-packages/torch/distributed/launcher/api.py", line 269, in launch_agent
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
  time      : 2026-12-01_10:11:13
  host      : gpu01
  rank      : 2 (local_rank: 2)
  exitcode  : 1 (pid: 4502)
  error_file: /tmp/torchelastic_x/none_y/attempt_0/2/error.json
  traceback : Traceback (most recent call last):
    File "/usr/local/lib/python3.12/dist-packages/torch/distributed/elastic/multiprocessing/errors/__init__.py", line 357, in wrapper
      return f(*args, **kwargs)
    File "/work/SpecForge/scripts/train_eagle3.py", line 412, in main
      draft_ids = d2t[target_ids]
  {exc}
  
============================================================
"""


@pytest.mark.parametrize("exc, exception, message", [
    ("KeyError: 'd2t'", "KeyError", "'d2t'"),
    ("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 3.91 GiB.", "torch.OutOfMemoryError",
     "CUDA out of memory. Tried to allocate 3.91 GiB."),
])
def test_the_rank_s_exception_is_read_at_its_frame(exc, exception, message):
    errors = extract_errors(_REPORT.replace("{exc}", exc), exit_code=1)
    assert not [e for e in errors if "truncated" in e.message]
    rank = next(e for e in errors if e.exception == exception)
    assert (rank.message, rank.file, rank.line) == (message, "/work/SpecForge/scripts/train_eagle3.py", 412)
    assert any(e.message.startswith("rank 2 exitcode 1") for e in errors)  # the launcher's summary stays


def test_the_report_s_tail_alone_gives_the_rank_s_error():
    tail = _REPORT[_REPORT.index("  traceback : "):].replace("{exc}", "KeyError: 'd2t'")
    assert [(e.exception, e.message) for e in extract_errors(tail, exit_code=0)] == [("KeyError", "'d2t'")]
