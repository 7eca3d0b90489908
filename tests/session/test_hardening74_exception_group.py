"""An exception group's sub-exceptions are the failures, not the group.

Python 3.11's ``asyncio.TaskGroup`` (and anyio's, under starlette and uvicorn in vLLM's and
SGLang's servers) raises "ExceptionGroup: unhandled errors in a TaskGroup (1 sub-exception)" at
its ``__aexit__`` when a task fails, and Python prints each sub-exception's own traceback inside
a "+-+---- 1 ----" box under it. The group was reported as a failure of its own, first, at
asyncio's taskgroups.py, beside the drafter's "ValueError: d2t has 32000 entries ...". Now the
sub-exceptions are the failures and the group that only says they happened is left out; a group
whose sub-exceptions have no traceback (raised, never thrown) stays the error. The texts are what
CPython 3.11.7 prints.
"""

from spec_debug.session.failures import extract_errors

ONE = """\
  + Exception Group Traceback (most recent call last):
  |   File "/app/serve.py", line 15, in <module>
  |     asyncio.run(main())
  |   File "/usr/lib/python3.11/asyncio/runners.py", line 190, in run
  |     return runner.run(main)
  |            ^^^^^^^^^^^^^^^^
  |   File "/usr/lib/python3.11/asyncio/runners.py", line 118, in run
  |     return self._loop.run_until_complete(task)
  |            ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  |   File "/usr/lib/python3.11/asyncio/base_events.py", line 653, in run_until_complete
  |     return future.result()
  |            ^^^^^^^^^^^^^^^
  |   File "/app/serve.py", line 11, in main
  |     async with asyncio.TaskGroup() as tg:
  |   File "/usr/lib/python3.11/asyncio/taskgroups.py", line 145, in __aexit__
  |     raise me from None
  | ExceptionGroup: unhandled errors in a TaskGroup (1 sub-exception)
  +-+---------------- 1 ----------------
    | Traceback (most recent call last):
    |   File "/app/serve.py", line 4, in load_drafter
    |     raise ValueError("d2t has 32000 entries, expected 128256 (the target's vocab)")
    | ValueError: d2t has 32000 entries, expected 128256 (the target's vocab)
    +------------------------------------
"""

TWO = """\
  + Exception Group Traceback (most recent call last):
  |   File "/app/serve.py", line 14, in <module>
  |     asyncio.run(main())
  |   File "/usr/lib/python3.11/asyncio/runners.py", line 190, in run
  |     return runner.run(main)
  |            ^^^^^^^^^^^^^^^^
  |   File "/usr/lib/python3.11/asyncio/runners.py", line 118, in run
  |     return self._loop.run_until_complete(task)
  |            ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  |   File "/usr/lib/python3.11/asyncio/base_events.py", line 653, in run_until_complete
  |     return future.result()
  |            ^^^^^^^^^^^^^^^
  |   File "/app/serve.py", line 10, in main
  |     async with asyncio.TaskGroup() as tg:
  |   File "/usr/lib/python3.11/asyncio/taskgroups.py", line 145, in __aexit__
  |     raise me from None
  | ExceptionGroup: unhandled errors in a TaskGroup (2 sub-exceptions)
  +-+---------------- 1 ----------------
    | Traceback (most recent call last):
    |   File "/app/serve.py", line 4, in load_drafter
    |     raise ValueError("d2t has 32000 entries, expected 128256 (the target's vocab)")
    | ValueError: d2t has 32000 entries, expected 128256 (the target's vocab)
    +---------------- 2 ----------------
    | Traceback (most recent call last):
    |   File "/app/serve.py", line 7, in warm_up
    |     raise RuntimeError("CUDA error: an illegal memory access was encountered")
    | RuntimeError: CUDA error: an illegal memory access was encountered
    +------------------------------------
"""

FLAT = """\
  + Exception Group Traceback (most recent call last):
  |   File "/app/check.py", line 1, in <module>
  |     raise ExceptionGroup("drafter checks failed", [ValueError("d2t missing"), KeyError("t2d")])
  | ExceptionGroup: drafter checks failed (2 sub-exceptions)
  +-+---------------- 1 ----------------
    | ValueError: d2t missing
    +---------------- 2 ----------------
    | KeyError: 't2d'
    +------------------------------------
"""


def _errors(text):
    return [(e.kind, e.exception, e.message, e.file, e.line) for e in extract_errors(text, exit_code=1)]


def test_task_group_reports_its_sub_exception():
    assert _errors(ONE) == [
        ("traceback", "ValueError", "d2t has 32000 entries, expected 128256 (the target's vocab)", "/app/serve.py", 4)]


def test_task_group_reports_each_sub_exception():
    assert _errors(TWO) == [
        ("cuda_error", "RuntimeError", "CUDA error: an illegal memory access was encountered", "/app/serve.py", 7),
        ("traceback", "ValueError", "d2t has 32000 entries, expected 128256 (the target's vocab)", "/app/serve.py", 4)]


def test_group_of_exceptions_never_thrown_stays_the_error():
    assert _errors(FLAT) == [
        ("traceback", "ExceptionGroup", "drafter checks failed (2 sub-exceptions)", "/app/check.py", 1)]
