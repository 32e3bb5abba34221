#!/usr/bin/env bash
# Installs what the build and the tests need on Debian 12 (LLVM 22 from the
# distribution, CMake, Ninja, GoogleTest). Does nothing when all of it is
# already there, so it also works without root on a prepared machine.
set -euo pipefail

PACKAGES=(llvm-22-dev llvm-22-tools clang-22 cmake ninja-build libgtest-dev
          python3 ca-certificates)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
    missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all packages present"
  exit 0
fi
echo "setup: installing ${missing[*]}"
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO=sudo
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
