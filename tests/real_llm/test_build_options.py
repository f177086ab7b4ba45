"""The real-LLM server's build options follow the CPU (no server is built or run here)."""

from __future__ import annotations

import hashlib

from . import build_server
from .build_server import BASE_CMAKE_ARGS, cmake_args

AVX512_HOST = "flags : fpu sse4_2 avx avx2 fma f16c avx512f avx512bw avx512vl"
AMX_HOST = AVX512_HOST + " amx_bf16 amx_tile amx_int8"


def test_a_cpu_reporting_amx_gets_the_portable_build() -> None:
    """CPUID may report AMX where a VM has not enabled its state: -march=native then built
    a server that died of SIGILL on its first tile instruction (tilezero)."""
    assert cmake_args(AMX_HOST).split() == [*BASE_CMAKE_ARGS, "-DGGML_NATIVE=OFF"]


def test_other_cpus_keep_the_native_build() -> None:
    assert cmake_args(AVX512_HOST).split() == list(BASE_CMAKE_ARGS)
    assert cmake_args("").split() == list(BASE_CMAKE_ARGS)  # no /proc/cpuinfo (macOS)


def test_only_builds_beyond_the_base_options_get_a_new_cache_key(monkeypatch) -> None:
    """A native build keeps the key it always had (its cache stays valid); the portable one
    gets its own, so a broken native build of an AMX host is never reused."""

    def key_for(flags: str) -> str:
        monkeypatch.setattr(build_server, "cpu_flags", lambda: flags)
        return build_server.cache_key().rsplit("-", 1)[1]

    def flags_only(flags: str) -> str:
        return hashlib.sha256(flags.encode()).hexdigest()[:8]

    assert key_for(AVX512_HOST) == flags_only(AVX512_HOST)
    assert key_for(AMX_HOST) != flags_only(AMX_HOST)
