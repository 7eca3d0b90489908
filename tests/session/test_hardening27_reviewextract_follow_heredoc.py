"""follows_output reads the script a shell reads from a heredoc, as unattended.interactive does:
`ssh gpu01 sudo bash <<'EOF'` + `journalctl -u sglang -f` runs until stopped (was: no time limit,
the playbook step waited forever)."""

from spec_debug.session.follow import follows_output
from spec_debug.session.shell import parse_target


def test_follow_in_a_script_a_shell_reads_from_a_heredoc():
    inner = parse_target("ssh gpu01 sudo bash <<'EOF'\ncd /srv\njournalctl -u sglang -f\nEOF").inner
    assert follows_output(inner) == "journalctl -f"
    assert follows_output("cat <<EOF | sudo sh\nwatch -n1 nvidia-smi\nEOF") == "watch"
    assert follows_output("sudo bash <<\\EOF\ntail -F /var/log/vllm.log\nEOF") == "tail -F"


def test_a_heredoc_no_shell_runs_or_a_bounded_script_does_not_follow():
    assert follows_output("cat <<EOF > watch.sh\ntail -f /var/log/vllm.log\nEOF") is None
    assert follows_output("sudo bash <<'EOF'\njournalctl -u sglang -n 50 --no-pager\nEOF") is None
