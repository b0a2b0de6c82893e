#!/usr/bin/env bash
# Fetch, on a machine with a network, everything gpu_smoke.sh needs on an offline GPU machine:
#
#   scripts/gpu_smoke/bundle.sh OUT [PYTHON_VERSION]      (default 3.12)
#
# OUT/wheels/             tritonlint's wheel and its dependencies for that Python (manylinux
#                         x86_64), numpy<2 for the python backend's stub
# OUT/tritonserver.tar.xz the embedded Triton 2.51 from tritonlint's cache, without the
#                         python backend stubs of other Pythons and without libpython3.13
#
# The bundle stays under 64 MiB. Frameworks (torch, onnxruntime-gpu, tensorrt) are not in it:
# they are large, and the GPU machine is expected to have the ones it should test.
set -euo pipefail

out=${1:?usage: bundle.sh OUT [PYTHON_VERSION]}
pyver=${2:-3.12}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
python=${PYTHON:-python3}

mkdir -p "$out/wheels"
out=$(cd "$out" && pwd)

echo "== tritonlint's wheel"
"$python" -I -m pip wheel --quiet --no-deps --wheel-dir "$out/wheels" "$root"
wheel=$(ls -t "$out"/wheels/tritonlint-*.whl | head -1)

echo "== its dependencies, and numpy<2, for Python $pyver"
"$python" -I -m pip download --quiet --only-binary=:all: --dest "$out/wheels" \
    --python-version "$pyver" --implementation cp \
    --platform manylinux_2_28_x86_64 --platform manylinux_2_17_x86_64 \
    --platform manylinux2014_x86_64 --platform any \
    "$wheel" 'numpy<2'

echo "== the embedded tritonserver"
"$python" -c 'from tritonlint.tritonserver.provision import provision; provision(quiet=False)' >/dev/null
cache=$("$python" -c 'from tritonlint.tritonserver.provision import server_cache_dir; print(server_cache_dir())')
stubs=server/pytriton/tritonserver/python_backend_stubs
excludes=()
for other in "$cache/$stubs"/*; do
    [[ $(basename "$other") == "$pyver" ]] || excludes+=("--exclude=$stubs/$(basename "$other")")
done
tar -C "$cache" -cJf "$out/tritonserver.tar.xz" "${excludes[@]}" \
    --exclude='libpython3.13*' server

du -sh "$out"/wheels "$out"/tritonserver.tar.xz
total=$(du -sb "$out" | cut -f1)
echo "bundle: $((total / 1024 / 1024)) MiB in $out"
if (( total > 64 * 1024 * 1024 )); then
    echo "the bundle is over 64 MiB" >&2
    exit 1
fi
