"""An echoed search command that ends a pipeline is no error either (review of today's rule).

"$ cat server.log | grep -n "CUDA out of memory"" at a terminal's prompt read as a CUDA
out-of-memory error after a clean exit: today's rule knew the search command only first on the
line ("$ grep -rn ..."), and people filter a log through a pipe as often.
"""

import pytest

from spec_debug.session.failures import extract_errors


@pytest.mark.parametrize("prompt", ['$ cat server.log | grep -n "CUDA out of memory"',
                                    'root@gpu01:~# docker logs sglang 2>&1 | tail -5000 | grep -i "CUDA out of memory"'])
def test_a_search_at_a_pipelines_end_is_no_error(prompt):
    assert extract_errors(prompt + "\n$ echo done\ndone\n", exit_code=0) == []


def test_the_logs_real_oom_below_it_is_still_read():
    text = '$ cat server.log | grep -n "CUDA out of memory"\n' \
           "812:torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB\n"
    assert [e.kind for e in extract_errors(text, exit_code=0)] == ["cuda_oom"]
