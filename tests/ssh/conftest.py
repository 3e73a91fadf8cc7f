"""A real OpenSSH server on 127.0.0.1 for the launch-prefix tests: a throwaway host key, a throwaway client key
(the only one it accepts), a free port, no password, and a client that trusts only that host key. Started once per
test session; ready when a real `ssh ... true` succeeds (polled, never a fixed sleep). scripts/setup_ssh.sh
installs OpenSSH where `make test` runs; without it these tests are skipped, saying so."""

from __future__ import annotations

import contextlib
import getpass
import os
import shlex
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

SSHD = "/usr/sbin/sshd"  # sshd re-executes itself, so it must be started by its absolute path
READY_WITHIN_S = 60.0


@dataclass(frozen=True)
class SshServer:
    port: int
    user: str
    client_key: Path
    known_hosts: Path
    log: Path

    def prefix(self) -> list[str]:
        """The launch prefix: `ssh` with only this server's key trusted and only the throwaway key offered."""
        return ["ssh", "-F", "/dev/null", "-p", str(self.port), "-i", str(self.client_key),
                "-o", "IdentitiesOnly=yes", "-o", "BatchMode=yes", "-o", "PasswordAuthentication=no",
                "-o", "StrictHostKeyChecking=yes", "-o", f"UserKnownHostsFile={self.known_hosts}",
                "-o", "LogLevel=ERROR", f"{self.user}@127.0.0.1"]

    def prefix_text(self) -> str:
        return " ".join(shlex.quote(p) for p in self.prefix())

    def accepted(self) -> int:
        """How many logins the server accepted so far (its log)."""
        return self.log.read_text(encoding="utf-8", errors="replace").count("Accepted publickey")


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _banner(port: int) -> bool:
    with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=2) as s:
        s.settimeout(2)
        return s.recv(64).startswith(b"SSH-2.0-")
    return False


def _keygen(path: Path) -> None:
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "sharpbits-test", "-f", str(path)],
                   check=True, capture_output=True)


@pytest.fixture(scope="session")
def ssh_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SshServer]:
    if not os.access(SSHD, os.X_OK) or shutil.which("ssh") is None or shutil.which("ssh-keygen") is None:
        pytest.skip("OpenSSH (openssh-server, openssh-client) is not installed: `bash scripts/setup_ssh.sh` as root")
    if os.geteuid() == 0:
        os.makedirs("/run/sshd", mode=0o755, exist_ok=True)  # sshd's privilege-separation folder
    folder = tmp_path_factory.mktemp("sshd")
    folder.chmod(0o700)
    _keygen(folder / "host_key")
    _keygen(folder / "client_key")
    (folder / "authorized_keys").write_text((folder / "client_key.pub").read_text())
    (folder / "authorized_keys").chmod(0o600)
    user = getpass.getuser()
    log = folder / "sshd.log"
    process: subprocess.Popen[bytes] | None = None
    port = 0
    try:
        for _attempt in range(5):  # the port may be taken between choosing it and sshd binding it: choose again
            port = _free_port()
            config = folder / "sshd_config"
            config.write_text("\n".join([
                f"Port {port}", "ListenAddress 127.0.0.1", f"HostKey {folder / 'host_key'}",
                f"AuthorizedKeysFile {folder / 'authorized_keys'}", "PubkeyAuthentication yes",
                "PasswordAuthentication no", "KbdInteractiveAuthentication no", "UsePAM no", "StrictModes no",
                f"AllowUsers {user}", "PermitRootLogin prohibit-password", f"PidFile {folder / 'sshd.pid'}",
                "LogLevel VERBOSE", "X11Forwarding no", "AllowTcpForwarding no", "PrintMotd no", "",
            ]))
            log.write_text("")
            process = subprocess.Popen([SSHD, "-D", "-e", "-f", str(config), "-E", str(log)],
                                       stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            deadline = time.monotonic() + READY_WITHIN_S
            while process.poll() is None and time.monotonic() < deadline and not _banner(port):
                time.sleep(0.05)  # polling the port: the next look, not a wait for an assumed start-up time
            if process.poll() is None:
                break
            process = None
        if process is None:
            pytest.fail(f"sshd did not start: {log.read_text(errors='replace')[-2000:]}")
        host_pub = (folder / "host_key.pub").read_text().split()
        known = folder / "known_hosts"
        known.write_text(f"[127.0.0.1]:{port} {host_pub[0]} {host_pub[1]}\n")
        server = SshServer(port, user, folder / "client_key", known, log)
        # the handshake: a real login with the throwaway key, polled until the server takes it
        deadline = time.monotonic() + READY_WITHIN_S
        while True:
            probe = subprocess.run([*server.prefix(), "true"], capture_output=True, text=True, timeout=30,
                                   stdin=subprocess.DEVNULL)
            if probe.returncode == 0:
                break
            if time.monotonic() > deadline or process.poll() is not None:
                pytest.fail(f"cannot log in to the test sshd: {probe.stderr.strip()}\n"
                            f"{log.read_text(errors='replace')[-2000:]}")
            time.sleep(0.05)
        yield server
    finally:
        if process is not None:
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
