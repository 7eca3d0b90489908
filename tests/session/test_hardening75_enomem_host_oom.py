"""The system's "Cannot allocate memory" (ENOMEM) from Python or torch is a host out-of-memory error.

A hidden-state generation run forks its dataloader workers from a process that holds the target
in RAM and dies with "OSError: [Errno 12] Cannot allocate memory"; loading a checkpoint with
mmap on a host short of memory dies with torch's "RuntimeError: unable to mmap 4294967296 bytes
from file </data/model.safetensors>: Cannot allocate memory (12)" (aten MapAllocator). Before,
both were a plain ``traceback``/``exception``; now their kind is ``host_oom``. llama.cpp's
"failed to mlock ...: Cannot allocate memory" stays a warning, no error."""

from __future__ import annotations

from spec_debug.session.failures import extract_errors

FORK = '''Traceback (most recent call last):
  File "/w/gen_hidden_states.py", line 88, in <module>
    for batch in loader:
  File "/usr/lib/python3.10/multiprocessing/popen_fork.py", line 66, in _launch
    self.pid = os.fork()
OSError: [Errno 12] Cannot allocate memory
'''
MMAP = "RuntimeError: unable to mmap 4294967296 bytes from file </data/model.safetensors>: Cannot allocate memory (12)"


def test_fork_enomem_is_host_oom():
    [error] = extract_errors(FORK, exit_code=1)
    assert (error.kind, error.exception, error.message) == ("host_oom", "OSError", "[Errno 12] Cannot allocate memory")


def test_torch_mmap_enomem_is_host_oom():
    [error] = extract_errors(f"loading shards\n{MMAP}\n", exit_code=1)
    assert (error.kind, error.exception) == ("host_oom", "RuntimeError")


def test_mlock_warning_is_no_host_oom():
    out = ("warning: failed to mlock 4685930496-byte buffer (after previously locking 0 bytes): Cannot allocate memory\n"
           "llama_model_load: error loading model: missing tensor 'blk.0.attn_q.weight'\n")
    assert [e.kind for e in extract_errors(out, exit_code=1)] == ["exit_code"]


def test_other_oserror_stays_an_exception():
    [error] = extract_errors("OSError: [Errno 28] No space left on device", exit_code=1)
    assert error.kind == "exception"
