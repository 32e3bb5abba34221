#!/usr/bin/env bash
# Installs what the build and the tests need on Debian 12: LLVM 22 and
# clang-22 (bookworm-security), CMake, Ninja, GoogleTest, Python for lit,
# and Debian's HIP headers and ROCm device libraries for HIP kernels
# (utils/hip-device-libs.sh adds what clang-22 needs on top of them).
# Does nothing when every package is already installed, so it also works
# without root on a prepared machine; otherwise it needs root or sudo.
#
# usage: utils/setup.sh
set -euo pipefail

PACKAGES=(
  llvm-22-dev    # LLVMConfig.cmake, headers, libLLVM.so (pulls llvm-22)
  llvm-22-tools  # FileCheck, not, lit
  clang-22       # clang++-22 builds the plugin; clang-22 runs the HIP test
  cmake
  ninja-build
  libgtest-dev   # the unit tests
  python3        # lit and the fuzzer
  libamdhip64-dev   # HIP headers (hip/hip_runtime.h) for the HIP kernels
  rocm-device-libs  # ROCm device libraries (threadIdx, __syncthreads)
  lld-22            # links HIP code objects (the CMake recipe)
)

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all packages installed"
  exit 0
fi

echo "setup: installing ${missing[*]}"
sudo=()
if [ "$(id -u)" -ne 0 ]; then
  if ! command -v sudo > /dev/null; then
    echo "setup: missing packages and not root (no sudo): run as root:" >&2
    echo "  apt-get update && apt-get install -y --no-install-recommends ${missing[*]}" >&2
    exit 1
  fi
  sudo=(sudo)
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update
"${sudo[@]}" apt-get install -y --no-install-recommends "${missing[@]}"
