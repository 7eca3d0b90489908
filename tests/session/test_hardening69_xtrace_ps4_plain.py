"""A `set -x` trace under a PS4 without parentheses is a trace too.

Guides give several PS4s for tracing a script with its places: '+${BASH_SOURCE}:${LINENO}: ',
'+$LINENO: ', '+${BASH_SOURCE}:${LINENO}:${FUNCNAME[0]}: ', and the FUNCNAME form
'...:${FUNCNAME[0]:+${FUNCNAME[0]}():} '. Only "+ " and "+(file:line): " were read as trace
lines: a script's `+./run.sh:4: grep -c 'CUDA out of memory' server.log` was a CUDA out-of-memory
error of the session, whatever the script's status, and a failed script's message a trace.
Each output below is what bash 5.2.15 printed (2>&1) for the script

    PS4='<ps4>'
    set -x
    x=$(echo hi)
    grep -c "CUDA out of memory" /dev/null
    f() { echo "FAILED: server died"; }
    f
    exit 1
"""

import pytest

from spec_debug.session.failures import extract_errors

RECORDED = {
    "+${BASH_SOURCE}:${LINENO}: ": """\
++./run3.sh:3: echo hi
+./run3.sh:3: x=hi
+./run3.sh:4: grep -c 'CUDA out of memory' /dev/null
0
+./run3.sh:6: f
+./run3.sh:5: echo 'FAILED: server died'
FAILED: server died
+./run3.sh:7: exit 1
""",
    "+$LINENO: ": """\
++3: echo hi
+3: x=hi
+4: grep -c 'CUDA out of memory' /dev/null
0
+6: f
+5: echo 'FAILED: server died'
FAILED: server died
+7: exit 1
""",
    "+${BASH_SOURCE}:${LINENO}:${FUNCNAME[0]}: ": """\
++./run3.sh:3:: echo hi
+./run3.sh:3:: x=hi
+./run3.sh:4:: grep -c 'CUDA out of memory' /dev/null
0
+./run3.sh:6:: f
+./run3.sh:5:f: echo 'FAILED: server died'
FAILED: server died
+./run3.sh:7:: exit 1
""",
    "+${BASH_SOURCE}:${LINENO}:${FUNCNAME[0]:+${FUNCNAME[0]}():} ": """\
++./run3.sh:3: echo hi
+./run3.sh:3: x=hi
+./run3.sh:4: grep -c 'CUDA out of memory' /dev/null
0
+./run3.sh:6: f
+./run3.sh:5:f(): echo 'FAILED: server died'
FAILED: server died
+./run3.sh:7: exit 1
""",
}


def _found(output, exit_code, **kw):
    return [(e.kind, e.message) for e in extract_errors(output, exit_code, **kw)]


@pytest.mark.parametrize("ps4", RECORDED)
def test_the_failed_script_says_what_it_printed(ps4):
    assert _found(RECORDED[ps4], 1) == [("exit_code", "FAILED: server died")]


@pytest.mark.parametrize("ps4", RECORDED)
def test_a_traced_grep_for_an_error_is_no_error(ps4):
    went_well = RECORDED[ps4].replace("FAILED: server died", "started").replace("exit 1", "exit 0")
    assert _found(went_well, 0) == []
    assert _found(went_well, None, status_known=False) == []


def test_a_line_the_script_printed_is_still_read():
    # an untraced line in the same shape as none of the traces: the program's own report
    output = "+./run.sh:4: python3 serve.py\ntorch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB\n"
    assert [e.kind for e in extract_errors(output, 1)] == ["cuda_oom"]
