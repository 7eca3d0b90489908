"""AddKeysToAgent: a key opened from its file is handed to ssh-agent, as ssh(1) hands it.

ssh(1) adds every identity it loads from a file (after the passphrase, when there is one) to
the agent when AddKeysToAgent is on (openssh-portable: sshconnect2.c, load_identity_file calls
maybe_add_key_to_agent). People set it so that one passphrase a login session is enough:
`ssh gpu01` once, then every tool, `--batch` runs included, signs through the agent. spec-debug
ignored it: its passphrase was asked on every run, and a `--batch` run after it still failed
with "private key ... is encrypted" where, after `ssh`, it would have found the key loaded.

paramiko's Agent only lists keys and signs, so the add request is built here, by the agent
protocol (draft-miller-ssh-agent, sections 3.2 and 3.2.6: SSH_AGENTC_ADD_IDENTITY,
SSH_AGENTC_ADD_ID_CONSTRAINED with lifetime and confirm constraints).
"""

from __future__ import annotations

import paramiko

from spec_debug.runner.ssh_config import AddKeysToAgent

_ADD_IDENTITY = 17
_ADD_ID_CONSTRAINED = 25
_CONSTRAIN_LIFETIME = 1
_CONSTRAIN_CONFIRM = 2
_AGENT_SUCCESS = 6


def private_key_fields(key: paramiko.PKey) -> paramiko.Message | None:
    """The key as the agent protocol carries it (draft-miller-ssh-agent, 3.2.1-3.2.3: the
    fields ssh-add sends, openssh-portable: sshkey.c, sshkey_private_serialize); None for a
    kind of key this does not know (it then stays out of the agent, as before)."""
    fields = paramiko.Message()
    if isinstance(key, paramiko.Ed25519Key):
        seed = bytes(key._signing_key)  # nacl SigningKey: the 32-byte seed (paramiko/ed25519key.py)
        public = key._signing_key.verify_key.encode()
        fields.add_string("ssh-ed25519")
        fields.add_string(public)
        fields.add_string(seed + public)  # ENC(k) || ENC(A), as OpenSSH stores it
        return fields
    if isinstance(key, paramiko.RSAKey):
        numbers = key.key.private_numbers()  # cryptography RSAPrivateKey (paramiko/rsakey.py)
        fields.add_string("ssh-rsa")
        for value in (numbers.public_numbers.n, numbers.public_numbers.e, numbers.d, numbers.iqmp, numbers.p, numbers.q):
            fields.add_mpint(value)
        return fields
    if isinstance(key, paramiko.ECDSAKey):
        private = key.signing_key  # cryptography EllipticCurvePrivateKey (paramiko/ecdsakey.py)
        fields.add_string(key.ecdsa_curve.key_format_identifier)
        fields.add_string(key.ecdsa_curve.key_format_identifier.rsplit("-", 1)[-1])  # nistp256
        point = paramiko.Message(key.asbytes())
        point.get_text()  # type
        point.get_text()  # curve
        fields.add_string(point.get_binary())  # Q, as in the public blob
        fields.add_mpint(private.private_numbers().private_value)
        return fields
    return None


def add_to_agent(agent: paramiko.Agent, key: paramiko.PKey, comment: str, how: AddKeysToAgent) -> bool:
    """Hand `key` to the agent `agent` is connected to; True when the agent took it. Never
    raises: ssh(1) only notes a refusal in its debug log ("could not add identity to agent")."""
    fields = private_key_fields(key)
    if fields is None:
        return False
    request = paramiko.Message()
    constrained = how.confirm or how.lifetime_s is not None
    request.add_byte(bytes([_ADD_ID_CONSTRAINED if constrained else _ADD_IDENTITY]))
    request.add_bytes(fields.asbytes())
    request.add_string(comment)
    if how.lifetime_s is not None:
        request.add_byte(bytes([_CONSTRAIN_LIFETIME]))
        request.add_int(how.lifetime_s)
    if how.confirm:
        request.add_byte(bytes([_CONSTRAIN_CONFIRM]))
    try:
        reply, _ = agent._send_message(request)  # paramiko/agent.py, AgentSSH: length-prefixed request, reply
    except (OSError, EOFError, paramiko.SSHException):
        return False
    return reply == _AGENT_SUCCESS
