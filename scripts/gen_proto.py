"""Regenerate the Python code of the protobuf contract (proto/paipu/v1/*.proto).

Usage: ``python scripts/gen_proto.py [OUT_DIR]`` (default: the repository root, so the
files land in ``paipu/v1/``: ``*_pb2.py``, ``*_pb2.pyi``, ``*_pb2_grpc.py``).

Runs the protoc bundled with grpcio-tools (``-I proto --python_out --pyi_out
--grpc_python_out``), on the .proto files in sorted order, so the output depends only on
the .proto files and the grpcio-tools version. tests/eventlog/test_proto.py regenerates
into a temporary directory and requires byte-identical output to the committed files.

Errors: exits non-zero with protoc's message when a .proto file does not compile.
"""

from __future__ import annotations

import sys
from importlib import resources
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROTO_DIR = ROOT / "proto"
PACKAGE_DIR = "paipu/v1"  # the proto package paipu.v1, relative to PROTO_DIR and OUT_DIR


def proto_files() -> list[Path]:
    """The .proto files of the contract, sorted (relative to ``PROTO_DIR``)."""
    return sorted(p.relative_to(PROTO_DIR) for p in (PROTO_DIR / PACKAGE_DIR).glob("*.proto"))


def generate(out_dir: Path) -> list[Path]:
    """Run protoc into ``out_dir``; returns the generated files (sorted).

    Raises RuntimeError with protoc's exit code when compilation fails."""
    from grpc_tools import protoc

    out_dir = Path(out_dir)
    (out_dir / PACKAGE_DIR).mkdir(parents=True, exist_ok=True)
    well_known = resources.files("grpc_tools") / "_proto"
    args = [
        "grpc_tools.protoc",
        f"-I{PROTO_DIR}",
        f"-I{well_known}",
        f"--python_out={out_dir}",
        f"--pyi_out={out_dir}",
        f"--grpc_python_out={out_dir}",
        *(str(p) for p in proto_files()),
    ]
    rc = protoc.main(args)
    if rc != 0:
        raise RuntimeError(f"protoc failed with exit code {rc}")
    return generated_files(out_dir)


def generated_files(out_dir: Path) -> list[Path]:
    """The generated Python files under ``out_dir/paipu/v1`` (sorted, relative)."""
    base = Path(out_dir)
    pats = ("*_pb2.py", "*_pb2.pyi", "*_pb2_grpc.py")
    return sorted(p.relative_to(base) for pat in pats for p in (base / PACKAGE_DIR).glob(pat))


def main(argv: list[str]) -> int:
    out = Path(argv[1]) if len(argv) > 1 else ROOT
    try:
        files = generate(out)
    except RuntimeError as e:
        print(e, file=sys.stderr)
        return 1
    for f in files:
        print(out / f)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
