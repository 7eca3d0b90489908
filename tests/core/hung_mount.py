"""A mount whose every file access hangs in the kernel, as on a dead NFS server or a GPU whose
driver stopped answering (`nvidia-smi` after an Xid 79): the process waits in uninterruptible
sleep (state D) and SIGKILL does not end it until the wait does.

Run inside `unshare -rm` (a private mount namespace): `python hung_mount.py MOUNTPOINT --
COMMAND...` mounts a FUSE file system on MOUNTPOINT whose server answers the kernel's INIT and
then reads every request without answering it, runs COMMAND, and ends the mount (which releases
the stuck processes) when COMMAND exits or after --limit seconds. Prints one JSON line:
{"rc": COMMAND's exit status or null when it ran past the limit, "seconds": how long it ran}.
With --stuck FILE it creates FILE when it reads the first request it leaves unanswered: a
process is now stuck in the mount, the moment a test may stop the run (a fixed sleep before
the signal lost the race under load: the run was stopped before its step started).

The FUSE wire format is the kernel's (torvalds/linux include/uapi/linux/fuse.h): a 40-byte
fuse_in_header per request, a 16-byte fuse_out_header per reply. A request the server has read
and not answered is waited for uninterruptibly once a fatal signal arrives (fs/fuse/dev.c,
request_wait_answer: "Either request is already in userspace, or it was forced. Wait it out.").
"""

from __future__ import annotations

import json
import os
import struct
import subprocess
import sys
import threading
import time

_IN_HEADER = struct.Struct("<IIQQIIII")
_OUT_HEADER = struct.Struct("<IiQ")
_FUSE_INIT = 26
# fuse_init_out as of protocol 7.31: major, minor, max_readahead, flags, max_background,
# congestion_threshold, max_write, time_gran, max_pages, map_alignment, flags2, then unused.
_INIT_OUT = struct.Struct("<IIIIHHIIHHI28x")


def _serve(fd: int, stuck_marker: str | None) -> None:
    while True:
        try:
            request = os.read(fd, 1 << 20)
        except OSError:
            return  # the mount ended
        _length, opcode, unique, *_ = _IN_HEADER.unpack_from(request)
        if opcode == _FUSE_INIT:
            body = _INIT_OUT.pack(7, 31, 0, 0, 0, 0, 4096, 1, 0, 0, 0)
            os.write(fd, _OUT_HEADER.pack(_OUT_HEADER.size + len(body), 0, unique) + body)
        # Every other request is read and never answered: its caller hangs in the kernel.
        elif stuck_marker:
            open(stuck_marker, "a").close()
            stuck_marker = None


def main() -> int:
    mountpoint, options = sys.argv[1], sys.argv[2 : sys.argv.index("--")]
    limit = float(options[options.index("--limit") + 1])
    stuck_marker = options[options.index("--stuck") + 1] if "--stuck" in options else None
    command = sys.argv[sys.argv.index("--") + 1 :]
    fd = os.open("/dev/fuse", os.O_RDWR)
    subprocess.run(
        ["mount", "-t", "fuse", "-o", f"fd={fd},rootmode=40000,user_id=0,group_id=0", "hung", mountpoint],
        pass_fds=[fd], check=True,
    )
    threading.Thread(target=_serve, args=(fd, stuck_marker), daemon=True).start()
    started = time.monotonic()
    child = subprocess.Popen(command)
    try:
        rc: int | None = child.wait(timeout=limit)
    except subprocess.TimeoutExpired:
        rc = None
    seconds = time.monotonic() - started
    # Closing the device aborts the connection: the stuck requests fail and their callers die.
    subprocess.run(["umount", "-l", mountpoint], check=False)
    os.close(fd)
    if rc is None:
        child.kill()
        child.wait(timeout=30)
    print(json.dumps({"rc": rc, "seconds": round(seconds, 2)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
