"""This machine's interfaces and their addresses, from getifaddrs(3): for `Match localnetwork`
(openssh-portable: readconf.c, check_match_ifaddrs) and BindInterface (sshconnect.c,
check_ifaddrs)."""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
import ipaddress
import os
import socket

from spec_debug.errors import UsageError


def _on_local_network(networks: str) -> bool:
    """`Match localnetwork`: whether an address of an interface that is up lies in one of the
    comma-separated CIDR networks (openssh-portable: readconf.c, check_match_ifaddrs)."""
    try:
        wanted = [ipaddress.ip_network(cidr.strip(), strict=False) for cidr in networks.split(",") if cidr.strip()]
    except ValueError as exc:
        raise UsageError(f"ssh config: Match localnetwork {networks}: {exc}") from None
    return any(address in network for address in _interface_addresses() for network in wanted if address.version == network.version)


class _Sockaddr(ctypes.Structure):
    _fields_ = [("family", ctypes.c_ushort), ("data", ctypes.c_ubyte * 14)]


class _SockaddrIn6(ctypes.Structure):
    _fields_ = [("family", ctypes.c_ushort), ("port", ctypes.c_ushort), ("flowinfo", ctypes.c_uint32),
                ("address", ctypes.c_ubyte * 16), ("scope", ctypes.c_uint32)]


class _Ifaddrs(ctypes.Structure):
    pass


_Ifaddrs._fields_ = [  # struct ifaddrs, getifaddrs(3) (Linux layout)
    ("next", ctypes.POINTER(_Ifaddrs)), ("name", ctypes.c_char_p), ("flags", ctypes.c_uint),
    ("address", ctypes.POINTER(_Sockaddr)), ("netmask", ctypes.POINTER(_Sockaddr)),
    ("broadcast", ctypes.POINTER(_Sockaddr)), ("data", ctypes.c_void_p),
]
_IFF_UP = 0x1


def _interface_addresses() -> tuple[ipaddress.IPv4Address | ipaddress.IPv6Address, ...]:
    """The addresses of this machine's interfaces that are up; none where getifaddrs(3) cannot
    be called (then no localnetwork matches)."""
    return tuple(address for _, address in _interfaces())


def bind_interface_address(interface: str, version: int | None) -> str | None:
    """The address ssh(1) binds for `BindInterface NAME` (openssh-portable: sshconnect.c,
    check_ifaddrs): the first address of that interface, up, of the family of the host's
    address (`version` 4 or 6; None when not yet known: IPv4 first), preferring one that is
    neither loopback nor IPv6 link-local. None where the interface has no such address."""
    versions = (version,) if version else (4, 6)
    for wanted in versions:
        candidates = [address for name, address in _interfaces() if name == interface and address.version == wanted]
        for allow_local in (False, True):
            for address in candidates:
                if allow_local or not (address.is_loopback or (address.version == 6 and address.is_link_local)):
                    return str(address)
    return None


@functools.lru_cache(maxsize=1)
def _interfaces() -> tuple[tuple[str, ipaddress.IPv4Address | ipaddress.IPv6Address], ...]:
    """(interface name, address) of this machine's interfaces that are up, as getifaddrs(3)
    lists them (the stdlib has no binding); none where it cannot be called."""
    if not os.path.exists("/proc/self"):  # the Linux struct layout above; elsewhere: none
        return ()
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
    except OSError:
        return ()
    head = ctypes.POINTER(_Ifaddrs)()
    if libc.getifaddrs(ctypes.byref(head)) != 0:
        return ()
    found: list[tuple[str, ipaddress.IPv4Address | ipaddress.IPv6Address]] = []
    try:
        entry = head
        while entry:
            item = entry.contents
            if item.address and item.flags & _IFF_UP:
                family = item.address.contents.family
                name = (item.name or b"").decode(errors="replace")
                if family == socket.AF_INET:
                    found.append((name, ipaddress.IPv4Address(bytes(item.address.contents.data[2:6]))))
                elif family == socket.AF_INET6:
                    six = ctypes.cast(item.address, ctypes.POINTER(_SockaddrIn6)).contents
                    found.append((name, ipaddress.IPv6Address(bytes(six.address))))
            entry = item.next
    finally:
        libc.freeifaddrs(head)
    return tuple(found)
