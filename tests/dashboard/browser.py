"""What the end-to-end tests share: headless Chromium, free ports, and `halgate dashboard`
served as a subprocess until the test ends.

A browser test is skipped when /usr/bin/chromium or playwright is missing, unless
HALGATE_REQUIRE_BROWSER=1 (CI), which makes the absence a failure.
"""

from __future__ import annotations

import os
import secrets
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")
#: Screenshots the browser tests leave for a reviewer to look at.
ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"


def require(missing: list[str]) -> None:
    """Skip (or, under HALGATE_REQUIRE_BROWSER=1, fail) when anything is ``missing``."""
    if missing:
        msg = f"end-to-end test needs {' and '.join(missing)}"
        if os.environ.get("HALGATE_REQUIRE_BROWSER") == "1":
            pytest.fail(msg + " (HALGATE_REQUIRE_BROWSER=1)")
        pytest.skip(msg)


def browser_or_skip() -> None:
    """Chromium and playwright, or skip the test (fail under HALGATE_REQUIRE_BROWSER=1)."""
    missing = []
    if not CHROMIUM.exists():
        missing.append(str(CHROMIUM))
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        missing.append("the playwright package")
    require(missing)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_healthy(url: str, proc: subprocess.Popen, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"halgate dashboard exited with {proc.returncode}")
        try:
            with urllib.request.urlopen(url + "/_stcore/health", timeout=2) as r:
                if r.status == 200:
                    return
        except OSError:
            time.sleep(0.3)
    raise TimeoutError("dashboard did not become healthy")


@contextmanager
def serve_dashboard(
    db: Path | str,
    port: int | None = None,
    cwd: Path | None = None,
    env: Mapping[str, str] | None = None,
    log: Path | None = None,
) -> Iterator[str]:
    """`halgate dashboard --db DB --port PORT` (DB a path or a store URL) started in
    ``cwd`` with ``env`` added to this process's environment, its output in ``log``; yields
    its base URL, and stops it (the whole process group) afterwards."""
    port = port or free_port()
    halgate = Path(sys.executable).with_name("halgate")
    with open(log or os.devnull, "wb") as out:
        proc = subprocess.Popen(
            [str(halgate), "dashboard", "--db", str(db), "--port", str(port)],
            cwd=cwd,
            env={**os.environ, **(env or {})},
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    url = f"http://127.0.0.1:{port}"
    try:
        wait_healthy(url, proc)
        yield url
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)


def launch(pw):
    """Headless Chromium with nothing that phones home (the app must work offline)."""
    return pw.chromium.launch(
        executable_path=str(CHROMIUM),
        args=[
            "--no-sandbox",
            "--headless",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
        ],
    )


def goto_page(page, title: str) -> None:
    """Open a page from the sidebar's navigation and wait for its heading."""
    page.locator('[data-testid="stSidebarNav"]').get_by_text(title, exact=True).click()
    page.get_by_role("heading", name=title, exact=True).wait_for(timeout=30_000)


def shoot(page, name: str) -> None:
    """A full-page screenshot under ARTIFACTS, once charts and grids have drawn."""
    page.wait_for_timeout(800)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def login_server_folder(work: Path, provider: str) -> int:
    """Make ``work`` a dashboard's folder whose ``.streamlit/secrets.toml`` configures the
    OIDC login against ``provider``; returns the port its redirect URI names (serve there)."""
    (work / ".streamlit").mkdir(parents=True)
    port = free_port()
    (work / ".streamlit" / "secrets.toml").write_text(
        "[auth]\n"
        f'redirect_uri = "http://127.0.0.1:{port}/oauth2callback"\n'
        f'cookie_secret = "{secrets.token_hex(32)}"\n'
        'client_id = "halgate-dashboard"\n'
        f'client_secret = "{secrets.token_hex(16)}"\n'
        f'server_metadata_url = "{provider}/.well-known/openid-configuration"\n',
        encoding="utf-8",
    )
    return port
