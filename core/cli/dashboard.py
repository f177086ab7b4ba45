"""`halgate dashboard`: serve the review dashboard shipped inside the package.

As ``streamlit hello`` does, the app file is found as a package resource and handed to
``streamlit run``; the database travels in ``HALGATE_DB``. Settings that must hold wherever the
command is started (headless, no usage statistics, theme) are passed as flags, because
Streamlit reads ``.streamlit/config.toml`` only from the working directory. The login
(``[auth]`` in ``.streamlit/secrets.toml``) is read from there too, or from
``~/.streamlit/secrets.toml``; so are ``halgate.toml`` and the default suite root.
"""

from __future__ import annotations

import os
import subprocess
import sys
from importlib.resources import as_file, files
from pathlib import Path
from typing import Annotated

import typer

from ..database import parse_target, target_exists
from ..inputs.archive import MAX_ARCHIVE_BYTES
from .app import app, err

FLAGS = {
    "server.headless": "true",
    "browser.gatherUsageStats": "false",
    "server.runOnSave": "false",
    "server.fileWatcherType": "none",
    "client.toolbarMode": "minimal",
    "client.showErrorDetails": "none",  # no tracebacks or exception text in the browser
    # An upload above this is refused by the server before it is held in memory.
    "server.maxUploadSize": str(MAX_ARCHIVE_BYTES // 2**20),
    "theme.base": "light",
    "theme.primaryColor": "#1f4e79",
}


def streamlit_command(app_file: Path, port: int, address: str) -> list[str]:
    """The ``python -m streamlit run`` command line for the app, with every fixed setting."""
    cmd = [sys.executable, "-m", "streamlit", "run", str(app_file)]
    settings = {**FLAGS, "server.port": str(port), "server.address": address}
    for key, value in settings.items():
        cmd.append(f"--{key}={value}")
    return cmd


@app.command(short_help="Serve the review dashboard on a database.")
def dashboard(
    db: Annotated[
        str,
        typer.Option(
            "--db",
            envvar="HALGATE_DB",
            help="Review database to open: a SQLite file or postgresql://USER@HOST/DB. "
            "Default: $HALGATE_DB, else ./halgate.db.",
        ),
    ] = "halgate.db",
    port: Annotated[
        int, typer.Option("--port", "-p", min=1, max=65535, help="Port to serve on (1-65535).")
    ] = 8501,
    address: Annotated[
        str,
        typer.Option(
            "--address",
            help="Interface to listen on; 0.0.0.0 shares the dashboard on the network.",
        ),
    ] = "127.0.0.1",
) -> None:
    """Serve the review dashboard (triage, overrides, sign-off) on the review database."""
    target = parse_target(db)
    if target.path is not None:
        db = str(target.path.expanduser().resolve())
        target = parse_target(db)
    if not target_exists(target):
        err.print(f"note: {db} does not exist yet; it will be created", markup=False)
    env = {**os.environ, "HALGATE_DB": db}
    with as_file(files("halgate.dashboard") / "app.py") as app_file:
        cmd = streamlit_command(app_file, port, address)
        err.print(f"halgate dashboard on http://{address}:{port} (database {target})", markup=False)
        if os.name == "posix":
            # Become the server: signals (Ctrl-C, a test's terminate) reach Streamlit directly.
            sys.stdout.flush()
            sys.stderr.flush()
            os.execve(sys.executable, cmd, env)
        try:
            code = subprocess.call(cmd, env=env)
        except KeyboardInterrupt:
            code = 130
    raise typer.Exit(code)
