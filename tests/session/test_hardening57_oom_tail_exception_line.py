"""A traceback cut to its last lines (``python3 load.py 2>&1 | tail -n 2``) shows the raising
source line above the exception line. After the failure, the CUDA OOM read was the first match,
the source line ('raise RuntimeError("CUDA out of memory ...")', no exception type); now the
exception line is preferred, as a full traceback gives. The output is CPython 3's, recorded from
a script raising that RuntimeError, piped through ``tail -n 2``."""

from __future__ import annotations

from spec_debug.session.failures import extract_errors

TAIL_2 = ('    raise RuntimeError("CUDA out of memory. Tried to allocate 2.00 GiB")\n'
          'RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB\n')


def test_failed_run_reads_the_exception_line_not_the_raise():
    [err] = extract_errors(TAIL_2, 1)
    assert err.kind == "cuda_oom"
    assert err.exception == "RuntimeError"
    assert not err.message.startswith("raise ")
    assert "Tried to allocate 2.00 GiB" in err.message


def test_failed_run_with_only_the_raise_line_still_reports_it():
    # nothing but code: the first match is all there is (a failed run that printed its source)
    [err] = extract_errors(TAIL_2.splitlines(keepends=True)[0], 1)
    assert err.kind == "cuda_oom"
