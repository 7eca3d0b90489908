"""A terminal log's echoed search command is no error.

A plain-text terminal capture shows the agent's "$ grep -rn "OutOfMemoryError" sglang/python/..."
above its hits: the hits (source lines, "path.py:1203:") were already skipped after a clean exit,
but the command line itself read as a CUDA out-of-memory error.
"""

import pytest

from spec_debug.session.failures import extract_errors

HITS = """sglang/python/sglang/srt/managers/scheduler.py:1203:        except torch.cuda.OutOfMemoryError:
sglang/python/sglang/srt/model_executor/model_runner.py:455:            raise torch.OutOfMemoryError("Not enough memory")
$ echo done
done
"""


@pytest.mark.parametrize("prompt", ['$ grep -rn "OutOfMemoryError" sglang/python/sglang/srt/ | head -3',
                                    'root@gpu-node:~# rg -n "CUDA out of memory" sglang/',
                                    '(venv) $ git grep -n OutOfMemoryError'])
def test_the_search_command_is_no_error(prompt):
    assert extract_errors(prompt + "\n" + HITS, exit_code=0) == []


def test_a_real_oom_after_a_clean_exit_is_still_read():
    errors = extract_errors("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB\n", exit_code=0)
    assert [e.kind for e in errors] == ["cuda_oom"]

