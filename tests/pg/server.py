"""A throwaway PostgreSQL server for the tests, started from Debian's binaries.

``start_server`` runs ``initdb`` and ``pg_ctl`` (as the ``postgres`` user when the tests run
as root: initdb refuses root) on a data folder and socket in a fresh temporary folder,
listening on 127.0.0.1 at a free port, with password authentication over TCP (so the tests
use URLs that carry a password, as a team's would) and fsync off. ``why_no_server`` says why
none can be had (no binaries, no unprivileged user); the tests then skip with that reason,
unless ``HALGATE_REQUIRE_POSTGRES=1`` (``.ci/run``), where they fail.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

USER = "halgate_admin"
PASSWORD = "s3cret-pg-pw"  # what the masking tests look for in every output


@dataclass
class PgServer:
    """A running server: its folder, port, and how to stop it."""

    root: Path
    port: int
    bindir: Path
    as_user: list[str]

    def url(self, dbname: str = "postgres", user: str = USER, password: str = PASSWORD) -> str:
        """A URL with the password in it, over TCP."""
        return f"postgresql://{user}:{password}@127.0.0.1:{self.port}/{dbname}"

    def stop(self) -> None:
        """Stop the server at once and remove its folder."""
        pg_ctl = str(self.bindir / "pg_ctl")
        stop = [*self.as_user, pg_ctl, "stop", "-m", "immediate", "-D", str(self.root / "data")]
        subprocess.run(stop, capture_output=True, check=False)
        shutil.rmtree(self.root, ignore_errors=True)


def find_bindir() -> Path | None:
    """Debian's newest PostgreSQL binaries, else ``initdb`` on the PATH."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=_version)
    if found:
        return Path(found[-1]).parent
    on_path = shutil.which("initdb")
    return Path(on_path).parent if on_path else None


def _version(path: str) -> float:
    try:
        return float(path.split("/")[4])
    except (IndexError, ValueError):
        return 0.0


def _runner() -> tuple[list[str], int | None] | None:
    """The command prefix that runs the server unprivileged, and the uid to own its files."""
    if os.geteuid() != 0:
        return [], None
    try:
        uid = pwd.getpwnam("postgres").pw_uid
    except KeyError:
        return None
    runuser = shutil.which("runuser")
    return ([runuser, "-u", "postgres", "--"], uid) if runuser else None


def why_no_server() -> str | None:
    """None when a server can be started here, else the reason it cannot."""
    if find_bindir() is None:
        return "no PostgreSQL server binaries (apt-get install postgresql)"
    if _runner() is None:
        return "running as root without a 'postgres' user and runuser to run initdb"
    return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server() -> PgServer:
    """initdb + pg_ctl start; raises RuntimeError with the server's log on failure."""
    bindir, runner = find_bindir(), _runner()
    if bindir is None or runner is None:
        raise RuntimeError(why_no_server() or "no server")
    prefix, uid = runner
    root = Path(tempfile.mkdtemp(prefix="halgate-pg-"))
    (root / "pw").write_text(PASSWORD + "\n")
    if uid is not None:
        os.chown(root, uid, -1)
        os.chown(root / "pw", uid, -1)
    initdb = [str(bindir / "initdb"), "-D", str(root / "data"), "-U", USER, "--no-sync"]
    initdb += ["--auth-local=trust", "--auth-host=scram-sha-256", f"--pwfile={root / 'pw'}"]
    _run([*prefix, *initdb], root)
    port = _free_port()
    opts = f"-p {port} -k {root} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200"
    start = [str(bindir / "pg_ctl"), "start", "-w", "-t", "60", "-D", str(root / "data")]
    _run([*prefix, *start, "-o", opts, "-l", str(root / "log")], root)
    return PgServer(root, port, bindir, prefix)


def _run(cmd: list[str], root: Path) -> None:
    done = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        log = (root / "log").read_text() if (root / "log").exists() else ""
        raise RuntimeError(f"{' '.join(cmd[:3])} failed: {done.stderr}{done.stdout}{log}")
