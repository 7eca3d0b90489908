"""SD402's line for a best layout that beats the served one by too few rows to tell from
chance (the layout step of a playbook run) asked to "probe more samples (--max-samples)":
`spec-debug run` has no such option (it is `spec-debug drafter layout`'s); the playbooks take
the count as the var max_samples. The line now names `--var max_samples=N`. The result is the
layout probe's report shape (spec_debug/eagle3/layout.py unclear_rows)."""

from __future__ import annotations

from spec_debug.diagnose.checks.drafter import check_layout


def test_the_few_rows_line_names_the_playbook_var():
    result = {"ranked": [{"layout": [1, 2, 3], "full_accuracy0": 0.40},
                         {"layout": [2, 3, 4], "full_accuracy0": 0.30}],
              "configured": [2, 3, 4], "unclear_rows": {"gained": 3, "rows": 40}}
    [finding] = check_layout(result, [2, 3, 4])
    [line] = [e for e in finding.evidence if "too few to tell" in e]
    assert finding.code == "SD402" and finding.severity == "warning"
    assert "--var max_samples=N" in line and "--max-samples" not in line, line
