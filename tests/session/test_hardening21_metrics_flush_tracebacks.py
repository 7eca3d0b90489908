"""A traceback whose frames are flush left is still read to its exception and innermost frame.

Logs that strip each line's leading whitespace (a log shipper's "message" field, a chat
window's paste, ``sed 's/^ *//'``) print CPython's frames as ``File "/x.py", line 88, in f``
with the source line under it flush left too. The frames were taken for the end of the
traceback: the error was "traceback without an exception line (truncated output)", with no
exception, message or frame, though the ValueError was two lines further on.
"""

from spec_debug.session.failures import extract_errors

# SGLang's EAGLE worker failing to load its token map (sglang python/sglang/srt/speculative/
# eagle_worker.py, load_token_map), leading whitespace stripped
FLUSH_LEFT = '''\
Traceback (most recent call last):
File "/usr/lib/python3.10/runpy.py", line 196, in _run_module_as_main
return _run_code(code, main_globals, None,
File "/sgl-workspace/sglang/python/sglang/srt/speculative/eagle_worker.py", line 88, in __init__
self.hot_token_id = load_token_map(server_args.speculative_token_map)
File "/sgl-workspace/sglang/python/sglang/srt/speculative/eagle_utils.py", line 40, in load_token_map
cache_dir = snapshot_download(
ValueError: Invalid token map path
'''

# Python 3.11+ with its carets, and a chain, all flush left
CHAINED_FLUSH = '''\
Traceback (most recent call last):
File "/w/load.py", line 5, in load
return torch.load(p)
^^^^^^^^^^^^^
FileNotFoundError: [Errno 2] No such file or directory: '/ckpt/pytorch_model.bin'

During handling of the above exception, another exception occurred:

Traceback (most recent call last):
File "/w/train.py", line 10, in <module>
load()
RuntimeError: could not load drafter
'''

# no source lines (a frozen module, a .pyc only): frame after frame, then the exception
NO_SOURCE = '''\
Traceback (most recent call last):
File "a.py", line 3, in <module>
File "b.py", line 9, in main
torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB
'''


def test_flush_left_frames_reach_the_exception():
    [err] = extract_errors(FLUSH_LEFT, exit_code=1)
    assert (err.kind, err.exception, err.message) == ("traceback", "ValueError", "Invalid token map path")
    assert err.file.endswith("speculative/eagle_utils.py") and err.line == 40


def test_flush_left_chain_reports_the_exception_that_propagated():
    [err] = extract_errors(CHAINED_FLUSH, exit_code=1)
    assert (err.exception, err.message) == ("RuntimeError", "could not load drafter")
    assert (err.file, err.line) == ("/w/train.py", 10)


def test_flush_left_frames_without_source_lines():
    [err] = extract_errors(NO_SOURCE, exit_code=1)
    assert err.kind == "cuda_oom" and err.exception == "torch.OutOfMemoryError"
    assert (err.file, err.line) == ("b.py", 9)


def test_a_truncated_flush_left_traceback_stays_truncated():
    cut = 'Traceback (most recent call last):\nFile "a.py", line 3, in <module>\nmain()\n'
    [err] = extract_errors(cut, exit_code=1)
    assert err.exception is None and "truncated" in err.message
    assert (err.file, err.line) == ("a.py", 3)
