"""A worker's exception that a process pool re-raises in the parent is placed at the worker's
frame, not at the pool's "raise self._value".

multiprocessing's Pool and concurrent.futures' ProcessPoolExecutor print the worker's traceback
as the cause ("RemoteTraceback: \"\"\" Traceback ... \"\"\"", then "The above exception was the direct
cause of the following exception:") and raise the same exception again in the parent (CPython
3.11 Lib/multiprocessing/pool.py rebuild_exc, Lib/concurrent/futures/process.py _rebuild_exc).
The outputs below are real runs recorded with CPython 3.11.7 (hardening 72, failures5).
"""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.failures import extract_errors

POOL_MAP = 'multiprocessing.pool.RemoteTraceback: \n"""\nTraceback (most recent call last):\n  File "/root/.pyenv/versions/3.11.7/lib/python3.11/multiprocessing/pool.py", line 125, in worker\n    result = (True, func(*args, **kwds))\n                    ^^^^^^^^^^^^^^^^^^^\n  File "/root/.pyenv/versions/3.11.7/lib/python3.11/multiprocessing/pool.py", line 48, in mapstar\n    return list(map(*args))\n           ^^^^^^^^^^^^^^^^\n  File "/tmp/failures5-scratch/mp.py", line 3, in w\n    return 1 / x\n           ~~^~~\nZeroDivisionError: division by zero\n"""\n\nThe above exception was the direct cause of the following exception:\n\nTraceback (most recent call last):\n  File "/tmp/failures5-scratch/mp.py", line 6, in <module>\n    p.map(w, [0])\n  File "/root/.pyenv/versions/3.11.7/lib/python3.11/multiprocessing/pool.py", line 367, in map\n    return self._map_async(func, iterable, mapstar, chunksize).get()\n           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n  File "/root/.pyenv/versions/3.11.7/lib/python3.11/multiprocessing/pool.py", line 774, in get\n    raise self._value\nZeroDivisionError: division by zero\n'

EXECUTOR_MAP = 'concurrent.futures.process._RemoteTraceback: \n"""\nTraceback (most recent call last):\n  File "/root/.pyenv/versions/3.11.7/lib/python3.11/concurrent/futures/process.py", line 261, in _process_worker\n    r = call_item.fn(*call_item.args, **call_item.kwargs)\n        ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n  File "/root/.pyenv/versions/3.11.7/lib/python3.11/concurrent/futures/process.py", line 210, in _process_chunk\n    return [fn(*args) for args in chunk]\n           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n  File "/root/.pyenv/versions/3.11.7/lib/python3.11/concurrent/futures/process.py", line 210, in <listcomp>\n    return [fn(*args) for args in chunk]\n            ^^^^^^^^^\n  File "/tmp/failures5-scratch/ppe.py", line 3, in w\n    with open(path) as f:\n         ^^^^^^^^^^\nFileNotFoundError: [Errno 2] No such file or directory: \'/tmp/failures5-scratch/no_such_shard.json\'\n"""\n\nThe above exception was the direct cause of the following exception:\n\nTraceback (most recent call last):\n  File "/tmp/failures5-scratch/ppe.py", line 7, in <module>\n    print(list(ex.map(w, ["/tmp/failures5-scratch/no_such_shard.json"])))\n          ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n  File "/root/.pyenv/versions/3.11.7/lib/python3.11/concurrent/futures/process.py", line 620, in _chain_from_iterable_of_lists\n    for element in iterable:\n  File "/root/.pyenv/versions/3.11.7/lib/python3.11/concurrent/futures/_base.py", line 619, in result_iterator\n    yield _result_or_cancel(fs.pop())\n          ^^^^^^^^^^^^^^^^^^^^^^^^^^^\n  File "/root/.pyenv/versions/3.11.7/lib/python3.11/concurrent/futures/_base.py", line 317, in _result_or_cancel\n    return fut.result(timeout)\n           ^^^^^^^^^^^^^^^^^^^\n  File "/root/.pyenv/versions/3.11.7/lib/python3.11/concurrent/futures/_base.py", line 456, in result\n    return self.__get_result()\n           ^^^^^^^^^^^^^^^^^^^\n  File "/root/.pyenv/versions/3.11.7/lib/python3.11/concurrent/futures/_base.py", line 401, in __get_result\n    raise self._exception\nFileNotFoundError: [Errno 2] No such file or directory: \'/tmp/failures5-scratch/no_such_shard.json\'\n'


def test_a_pool_worker_error_is_placed_in_the_worker():
    # before: file multiprocessing/pool.py, line 774 (the parent's "raise self._value")
    errors = extract_errors("Exit code 1\n" + POOL_MAP, 1, True)
    assert [(e.kind, e.exception, e.message, e.file, e.line) for e in errors] == [
        ("traceback", "ZeroDivisionError", "division by zero", "/tmp/failures5-scratch/mp.py", 3)]


def test_an_executor_worker_error_is_placed_in_the_worker():
    # before: concurrent/futures/_base.py, line 401 ("raise self._exception")
    errors = extract_errors("Exit code 1\n" + EXECUTOR_MAP, 1, True)
    assert [(e.exception, e.file, e.line) for e in errors] == [
        ("FileNotFoundError", "/tmp/failures5-scratch/ppe.py", 3)]
    assert errors[0].message == "[Errno 2] No such file or directory: '/tmp/failures5-scratch/no_such_shard.json'"


CHAINED = """\
Traceback (most recent call last):
  File "/w/load.py", line 2, in inner
    return {}["k"]
           ~~^^^^^
KeyError: 'k'

The above exception was the direct cause of the following exception:

Traceback (most recent call last):
  File "/w/load.py", line 8, in <module>
    outer()
  File "/w/load.py", line 7, in outer
    raise ValueError("bad config") from e
ValueError: bad config
"""


def test_a_different_exception_raised_from_a_cause_stays_the_error():
    errors = extract_errors(CHAINED, 1, True)
    assert [(e.exception, e.message, e.file, e.line) for e in errors] == [("ValueError", "bad config", "/w/load.py", 7)]


def test_same_exception_with_its_own_words_stays_the_error():
    out = CHAINED.replace("ValueError: bad config", "KeyError: 'k' missing from config")
    errors = extract_errors(out, 1, True)
    assert [(e.exception, e.message, e.line) for e in errors] == [("KeyError", "'k' missing from config", 7)]


def test_the_session_error_is_the_worker_frame(tmp_path: Path):
    messages = [
        {"role": "user", "content": "Run the shard check."},
        {"role": "assistant", "content": "Running it.",
         "tool_calls": [{"id": "a", "type": "function",
                         "function": {"name": "bash", "arguments": json.dumps({"command": "python3 mp.py"})}}]},
        {"role": "tool", "tool_call_id": "a", "content": POOL_MAP + "[exit code: 1]"},
    ]
    path = tmp_path / "pool.json"
    path.write_text(json.dumps({"messages": messages}), encoding="utf-8")
    analysis = analyze_path(path)
    assert [(e.exception, e.file, e.line) for e in analysis.errors] == [
        ("ZeroDivisionError", "/tmp/failures5-scratch/mp.py", 3)]
