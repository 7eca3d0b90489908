"""A source listing an agent printed (`sed -n 590,620p eagle_worker.py`, exit 0) names errors in
its comments and in the strings its raises and log calls are given: no error happened. The
comment "# torch.OutOfMemoryError: CUDA out of memory. is handled by the scheduler" was a CUDA
OOM, the logger call's "CUDA error: an illegal memory access" a CUDA error."""

from spec_debug.session.failures import extract_errors

_LISTING = '''    def verify(self, batch, spec_info):
        try:
            accept_index = spec_info.verify(batch, logits_output)
        except RuntimeError as e:
            logger.error(f"CUDA error: an illegal memory access was encountered in verify: {e}")
            raise
        if accept_index.numel() == 0:
            raise RuntimeError("CUDA error: device-side assert triggered (empty accept index)")
        # torch.OutOfMemoryError: CUDA out of memory. is handled by the scheduler
        return accept_index
'''


def test_a_listing_after_a_clean_exit_reports_nothing():
    assert extract_errors(_LISTING, exit_code=0) == []


def test_a_logged_repr_and_a_failed_run_still_report():
    # a server log's repr of the exception is an error that happened
    [error] = extract_errors("EngineCore failed: RuntimeError('CUDA error: an illegal memory access was encountered')",
                             exit_code=0)
    assert error.kind == "cuda_error"
    assert extract_errors(_LISTING, exit_code=1)  # after a failure every match counts, as before
