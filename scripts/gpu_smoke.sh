#!/usr/bin/env bash
# The smoke stage on a GPU machine: load a repository of GPU models on the embedded Triton 2.51
# and print each model's status and the device each of its instances ran on.
#
#   scripts/gpu_smoke.sh [BUNDLE]
#
# BUNDLE is a folder made by scripts/gpu_smoke/bundle.sh on a machine with a network (wheels
# and the packed server: nothing is downloaded here). Without it, the tritonlint importable by
# $PYTHON (default python3) is used and the server comes from its cache.
#
# The frameworks come from the Python environment of $PYTHON (torch, onnx, onnxruntime or
# onnxruntime-gpu, tensorrt): with a bundle, tritonlint's own environment reads that one's
# site-packages after its own (a .pth file), which is what the python backend's stub sees.
# The repository (scripts/gpu_smoke/make_repository.py) holds a KIND_GPU python model, a
# KIND_GPU ONNX model, a TorchScript model on the GPU, a TensorRT plan built here, a model on a
# GPU this machine lacks, and an ensemble over them; a model whose framework is missing is left
# out with the reason. Everything runs under $GPU_SMOKE_WORK (default: a temporary folder).
set -euo pipefail

bundle=${1:-}
here=$(cd "$(dirname "$0")" && pwd)
python=${PYTHON:-python3}
work=${GPU_SMOKE_WORK:-$(mktemp -d -t gpu-smoke-XXXXXX)}
mkdir -p "$work"
started=$SECONDS

step() { printf '\n== %s (%ss)\n' "$1" $((SECONDS - started)); }

step "machine"
nvidia-smi -L 2>/dev/null || echo "nvidia-smi: no GPU listed"
"$python" --version
"$python" - <<'PY' || true
import importlib.metadata as m
for name in ("numpy", "onnx", "onnxruntime", "onnxruntime-gpu", "torch", "tensorrt", "tensorrt-cu12"):
    try:
        print(f"  {name} {m.version(name)}")
    except m.PackageNotFoundError:
        pass
PY

if [[ -n $bundle ]]; then
    bundle=$(cd "$bundle" && pwd)
    step "tritonlint from $bundle"
    "$python" -m venv "$work/venv"
    "$work/venv/bin/python" -I -m pip install --quiet --no-index --find-links "$bundle/wheels" tritonlint
    tritonlint_python=$work/venv/bin/python
    export TRITONLINT_CACHE=$work/cache
    mkdir -p "$TRITONLINT_CACHE/tritonserver-2.51.0"
    tar -C "$TRITONLINT_CACHE/tritonserver-2.51.0" -xJf "$bundle/tritonserver.tar.xz"
    # The frameworks of $PYTHON's environment, after tritonlint's own packages.
    "$python" -c 'import site; print("\n".join(site.getsitepackages()))' \
        >"$("$tritonlint_python" -c 'import sysconfig; print(sysconfig.get_path("purelib"))')/gpu-smoke-frameworks.pth"
    # The python backend's stub needs numpy<2 to answer inferences; the bundle holds one.
    numpy_wheel=$(ls "$bundle"/wheels/numpy-1.*.whl 2>/dev/null | head -1 || true)
    if [[ -n $numpy_wheel ]]; then
        "$tritonlint_python" -I -m pip install --quiet --no-index --no-deps \
            --target "$work/stub-packages" "$numpy_wheel"
        export TRITONLINT_STUB_PACKAGES=$work/stub-packages
    fi
else
    tritonlint_python=$python
fi
"$tritonlint_python" -m tritonlint --version

step "repository"
"$tritonlint_python" "$here/gpu_smoke/make_repository.py" "$work/repo"

# Without a GPU (a dry run of this script) the models are loaded as KIND_CPU.
device=--gpus
if [[ $("$tritonlint_python" -c 'import json, sys; print(json.load(open(sys.argv[1]))["gpus"])' \
    "$work/repo.expected.json") == 0 ]]; then
    device=--cpu-only
fi
step "tritonlint smoke $device"
set +e
timeout 420 "$tritonlint_python" -m tritonlint smoke "$work/repo" \
    "$device" --format json --exit-zero >"$work/report.json" 2>"$work/smoke.stderr"
status=$?
set -e
echo "exit status $status (report: $work/report.json)"
tail -n 5 "$work/smoke.stderr"

step "each model"
"$tritonlint_python" - "$work/report.json" "$work/repo.expected.json" <<'PY'
import json
import sys

report = json.load(open(sys.argv[1]))
expected = json.load(open(sys.argv[2]))
print(f"server: {report['server']['description']}; GPUs: {report['server']['gpus']}")
print(f"frameworks: {report['server']['frameworks']}")
for model in report["models"]:
    name = model["name"]
    print(f"{name:<14} {model['status_text']}")
    if model.get("message") and model["message"] != model["status_text"]:
        print(f"{'':<14} message: {model['message'][:400]}")
    where = ", ".join(
        f"{instance['name']} on {instance['device']}" for instance in model.get("instances", [])
    )
    print(f"{'':<14} instances: {where or '(none reported)'}")
    if model.get("inference"):
        print(f"{'':<14} inference: {model['inference']['text']}")
    want = expected["expected"].get(name)
    verdict = "as expected" if want == model["status"] else "NOT AS EXPECTED"
    print(f"{'':<14} expected {want}, got {model['status']}: {verdict}")
for name, reason in expected["skipped"].items():
    print(f"{name:<14} left out: {reason}")
for finding in report["findings"]:
    place = ":".join(str(finding[key]) for key in ("path", "line", "column") if finding.get(key))
    print(f"{place}: {finding['code']} {finding['message'][:300]}")
PY
step "done"
