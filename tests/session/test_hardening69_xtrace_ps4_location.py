"""A script that sets the PS4 debugging guides give, `PS4='+(${BASH_SOURCE}:${LINENO}): ...'`,
then `set -x`: bash writes PS4's first character once per level, then the rest as set, so each
trace reads "+(launch.sh:4): grep -c 'CUDA out of memory' server.log" ("++(launch.sh:3): " inside
a command substitution; recorded with bash 5.2.15).

Before: only the default "+ " was known as a trace. A health check that went well (exit 0) was
a cuda_oom named by its grep's trace, and a failed one was named by its first trace line. Now
the location form is a trace too: the failure is what the script printed."""

from __future__ import annotations

from spec_debug.session.failures import extract_errors

TRACED = """\
++(launch.sh:3): hostname
+(launch.sh:3): node=gpu01
+(launch.sh:4): grep -c 'CUDA out of memory' server.log
0
+(launch.sh:6): check_draft
+(launch.sh:5): check_draft(): echo 'draft has no d2t table'
draft has no d2t table
+(launch.sh:7): exit 3"""


def test_a_located_trace_of_a_clean_run_is_no_error() -> None:
    assert extract_errors(TRACED.replace("\n+(launch.sh:7): exit 3", ""), 0, False, status_known=True) == []


def test_a_failed_runs_message_is_what_it_printed() -> None:
    (e,) = extract_errors(TRACED, 3, False, status_known=True)
    assert (e.kind, e.message) == ("exit_code", "draft has no d2t table")


def test_a_line_that_only_looks_like_one_is_kept() -> None:
    # no "(file:line): " after the plus: a count, not a trace
    (e,) = extract_errors("+(3 more): CUDA out of memory. Tried to allocate 2.00 GiB", 1, False, status_known=True)
    assert e.kind == "cuda_oom"
