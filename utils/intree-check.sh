#!/usr/bin/env bash
# Builds an llc with the llvm-patches/ series applied and runs the series'
# in-tree lit tests (llvm/test/CodeGen/AMDGPU/lds-barriers/) plus upstream's
# llc-pipeline.ll and llc-pipeline-npm.ll against it, in well under an hour on
# two cores (a full `ninja llc` takes about three hours there).
#
# usage: utils/intree-check.sh [--work DIR] [--jobs N] [--keep]
#   --work DIR  work directory (default $INTREE_WORK or /tmp/intree-work)
#   --jobs N    parallel jobs for tablegen, compile and lit (default 2)
#   --keep      reuse the extraction, configure, tablegen outputs and objects
#               of an earlier run (only what the series changes is redone);
#               without it everything but the verified download is redone
#
# How ("hybrid" build; Debian's LLVM 22 is the same release as the source):
#  download  the orig tarball of the source package of the installed llvm-22
#            (llvm-toolchain-22), checked against the SHA-256 of apt's signed
#            Sources index (a deb-src entry is added when missing); kept in
#            WORK/dl across runs
#  extract   llvm/ cmake/ third-party/ utils/ to WORK/src, then `git apply`
#            the series (listed in llvm-patches/series) to it
#  configure LLVM's CMake (Release, AMDGPU only, assertions off and RTTI on as
#            Debian builds it, Debian's llvm-tblgen so no tablegen is built)
#  tablegen  only the .inc files the files compiled below include
#  compile   the .cpp files the series adds or changes in lib/Target/AMDGPU
#            (AMDGPUTargetMachine.cpp among them) and tools/llc/*.cpp, the way
#            Debian builds LLVM (-O2 -DNDEBUG, RTTI), against Debian's installed
#            headers plus the source tree's and generated target headers
#  link      llc against Debian's static LLVM 22 libraries, with a copy of
#            libLLVMAMDGPUCodeGen.a whose AMDGPUTargetMachine.cpp.o is replaced
#            by the patched one and which holds the series' objects; then
#            checks that the pipeline without -amdgpu-lds-barriers-in-pipeline
#            is Debian's llc's and that the option adds only the pass, right
#            after the memory legalizer (both pass managers)
#  facts     prints the target facts of the plugin (BUILD_DIR, default
#            build/, loaded into Debian's llc) and of the built llc for five
#            targets and compares them (utils/compare_target_facts.py): each
#            difference must be explained in llvm-patches/target-facts.explained
#  tests     Debian's lit on copies of the tests, with the built llc first on
#            PATH and FileCheck/not/count/split-file from /usr/lib/llvm-22/bin
#  stack     each prefix 1..k of the stack: the registration files as it
#            leaves them, AMDGPUTargetMachine.cpp compiled from them, the
#            series' references resolved within its objects, an llc linked
#            with them, and its own tests run
#  clang     clang's driver sources linked with Debian's static clang
#            libraries (libclang-22-dev, downloaded and unpacked) and the
#            patched libLLVMAMDGPUCodeGen.a; it compiles utils/examples/
#            reduction.hip with the pass in its pipeline, no plugin loaded, to
#            the assembly Debian's clang gives with the plugin
#
# Limits of the hybrid build (checked, the script stops on them): the series
# may add files, change .cpp files of lib/Target/AMDGPU and only add
# declarations to its headers (objects of Debian's archive that include them
# are not rebuilt); it must not change .td files or code outside the AMDGPU
# target. Run as root on a fresh Debian 12 machine, it installs what it needs
# with apt-get (and the deb-src entry); otherwise the packages must be there.
# Every heavy command runs under `nice -n 19`. The series is copied to
# WORK/series first (it may change while this runs). Exits non-zero when a step
# fails or a test fails; the output ends with lit's summary.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
work=${INTREE_WORK:-/tmp/intree-work}
jobs=2 keep=0
while [ $# -gt 0 ]; do
  case "$1" in
    --work) work=$2; shift ;;
    --jobs) jobs=$2; shift ;;
    --keep) keep=1 ;;
    -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
    *) echo "intree-check: unknown argument $1" >&2; sed -n '7,12p' "$0" >&2; exit 2 ;;
  esac
  shift
done
[[ "$jobs" =~ ^[1-9][0-9]*$ ]] || { echo "intree-check: bad --jobs $jobs" >&2; exit 2; }
mkdir -p "$work"
work=$(cd "$work" && pwd)

LLVM=/usr/lib/llvm-22
NICE=(nice -n 19)
logs=$work/logs

# --- step bookkeeping --------------------------------------------------------
step_names=() step_times=() step_name= step_start=0 t0=$SECONDS
step() {
  step_name=$1 step_start=$SECONDS
  echo
  echo "== [$step_name] $2 ($(date +%H:%M:%S))"
}
step_done() {
  local d=$((SECONDS - step_start))
  step_names+=("$step_name") step_times+=("$d")
  echo "== [$step_name] done in $(fmt "$d")${1:+ ($1)}"
}
fmt() { printf '%dm%02ds' $(($1 / 60)) $(($1 % 60)); }
die() { echo "intree-check: [$step_name] $*" >&2; exit 1; }
# run LOG CMD...: run a heavy command with its output in LOG; its tail on failure
run() {
  local log=$1; shift
  if ! "${NICE[@]}" "$@" > "$log" 2>&1; then
    echo "--- last lines of $log:" >&2
    tail -n 60 "$log" >&2
    die "failed: $*"
  fi
}

# --- packages ----------------------------------------------------------------
step packages "check the packages"
# llvm-22-dev: headers, static libraries (libLLVM*.a), llvm-config, LLVM's
# llvm-tblgen (through llvm-22); llvm-22-tools: lit, FileCheck, not, count,
# split-file; clang-22: the compiler; lld-22: the linker (binutils' ld is
# used without it); libzstd-dev: -lzstd for the static link (llvm-22-dev
# already pulls zlib1g-dev, libxml2-dev, libz3-dev); git: git apply;
# xz-utils: the .tar.xz; apt-helper (apt) downloads.
need=(llvm-22-dev llvm-22-tools clang-22 lld-22 cmake ninja-build python3
      git xz-utils libzstd-dev)
missing=()
for p in "${need[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
    missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  [ "$(id -u)" -eq 0 ] ||
    die "missing packages (run as root to install them): ${missing[*]}"
  echo "installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  run "$work/apt-install.log" apt-get update
  run "$work/apt-install.log" apt-get install -y --no-install-recommends "${missing[@]}"
fi
for t in "$LLVM/bin/llvm-config" "$LLVM/bin/llvm-tblgen" "$LLVM/bin/lit" \
         "$LLVM/bin/llvm-ar" /usr/lib/apt/apt-helper; do
  [ -x "$t" ] || die "$t is missing"
done
LLVM_CONFIG=$LLVM/bin/llvm-config
CXX=$(command -v clang++-22) || die "clang++-22 is missing"
CC=$(command -v clang-22)
step_done

step clean "$([ "$keep" -eq 1 ] && echo "keep the earlier run's files" || echo "remove the earlier run's files but the download")"
if [ "$keep" -eq 0 ]; then
  "${NICE[@]}" rm -rf "$work/src" "$work/src.tmp" "$work/build" "$work/hybrid" \
         "$work/lit" "$work/logs" "$work/applied"
fi
mkdir -p "$work/dl" "$logs"
step_done

# --- download ----------------------------------------------------------------
step download "the source of the installed llvm-22"
srcpkg=$(dpkg-query -W -f='${source:Package}' llvm-22)
srcver=$(dpkg-query -W -f='${source:Version}' llvm-22)
upver=${srcver#*:}; upver=${upver%-*}
orig=${srcpkg}_${upver}.orig.tar.xz
echo "llvm-22 $($LLVM_CONFIG --version): source package $srcpkg $srcver, $orig"
# The Sources stanza of that version: Directory and the tarball's SHA-256.
showsrc() {
  { apt-cache showsrc --only-source "$srcpkg" 2>/dev/null || true; } |
    awk -v v="$srcver" 'BEGIN { RS = ""; FS = "\n" }
      { for (i = 1; i <= NF; i++) if ($i == "Version: " v) { print; exit } }'
}
stanza=$(showsrc)
if [ -z "$stanza" ]; then
  # Add deb-src for the repository the installed llvm-22 comes from.
  [ "$(id -u)" -eq 0 ] ||
    die "no deb-src entry has $srcpkg $srcver; add one (run as root to add it)"
  uri= dist=
  read -r uri dist < <(apt-cache policy llvm-22 |
    awk '/^ \*\*\* /{found=1; next} found && /^ +[0-9]+ (https?|file):/ {
           split($3, a, "/"); print $2, a[1]; exit }') || true
  [ -n "${uri:-}" ] || die "cannot find the origin of llvm-22 in apt-cache policy"
  echo "adding deb-src $uri $dist main in /etc/apt/sources.list.d/intree-check-src.sources"
  cat > /etc/apt/sources.list.d/intree-check-src.sources <<EOF
Types: deb-src
URIs: $uri
Suites: $dist
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
  run "$logs/apt-update.log" apt-get update
  stanza=$(showsrc)
  [ -n "$stanza" ] || die "apt-cache showsrc has no $srcpkg $srcver"
fi
sha=$(awk -v f="$orig" '/^Checksums-Sha256:/{c=1; next} /^[^ ]/{c=0}
                        c && $3 == f { print $1 }' <<< "$stanza")
dir=$(awk '/^Directory:/{print $2}' <<< "$stanza")
[ -n "$sha" ] && [ -n "$dir" ] || die "no SHA-256 or Directory for $orig in the Sources index"
tarball=$work/dl/$orig
if [ -f "$tarball" ] && echo "$sha  $tarball" | sha256sum -c --status; then
  echo "reusing $tarball (SHA-256 matches the Sources index)"
else
  rm -f "$tarball"
  # The mirror of the deb-src entry first; the orig tarball of a security
  # update is often only in the main archive's pool.
  urls=()
  while read -r u; do urls+=("${u%/}/$dir/$orig"); done < <(
    apt-get indextargets --format '$(REPO_URI)' 'Created-By: Sources' | sort -u)
  urls+=("http://deb.debian.org/debian/pool/main/${srcpkg:0:1}/$srcpkg/$orig")
  for u in "${urls[@]}"; do
    echo "fetching $u"
    if /usr/lib/apt/apt-helper download-file "$u" "$tarball.part" "SHA256:$sha" \
         > "$logs/download.log" 2>&1; then
      mv "$tarball.part" "$tarball"; break
    fi
    echo "  not there: $(grep -E '^(E|Err):' "$logs/download.log" | head -1)"
    rm -f "$tarball.part"
  done
  [ -f "$tarball" ] || die "could not download $orig"
  echo "$sha  $tarball" | sha256sum -c --status || die "SHA-256 mismatch for $tarball"
fi
echo "sha256 $sha ($(du -h "$tarball" | cut -f1))"
step_done

# --- extract and apply -------------------------------------------------------
step extract "llvm/ cmake/ third-party/ utils/ and the series"
src=$work/src
if [ -f "$src/.extracted" ] && [ "$(cat "$src/.extracted")" = "$sha" ]; then
  echo "reusing $src"
else
  rm -rf "$src" "$work/src.tmp" "$work/applied"
  mkdir -p "$work/src.tmp"
  top=${srcpkg}_${upver}
  run "$logs/extract.log" tar -C "$work/src.tmp" --strip-components=1 -xJf "$tarball" \
    "$top/llvm" "$top/cmake" "$top/third-party" "$top/utils"
  echo "$sha" > "$work/src.tmp/.extracted"
  mv "$work/src.tmp" "$src"
fi
[ -d "$src/.git" ] || git -C "$src" init -q
# The series as it is now (the patches may change while this runs).
series=$work/series
rm -rf "$series"; mkdir -p "$series"
mapfile -t patches < <(grep -v '^\s*\(#\|$\)' "$root/llvm-patches/series")
for p in "${patches[@]}"; do cp "$root/llvm-patches/$p" "$series/"; done
printf '%s\n' "${patches[@]}" > "$series/series"
applied=$work/applied
if [ -d "$applied" ] && diff -rq "$applied" "$series" > /dev/null; then
  echo "the series is already applied"
else
  if [ -d "$applied" ]; then
    echo "reverting the series applied by an earlier run"
    mapfile -t old < "$applied/series"
    for ((i = ${#old[@]} - 1; i >= 0; i--)); do
      git -C "$src" apply -R "$applied/${old[i]}" ||
        die "cannot revert ${old[i]}: run without --keep"
    done
    rm -rf "$applied"
  fi
  for p in "${patches[@]}"; do
    git -C "$src" apply --check "$series/$p" 2> "$logs/apply.log" ||
      { cat "$logs/apply.log" >&2; die "$p does not apply"; }
    git -C "$src" apply -v "$series/$p" 2>&1 | grep -v '^\(Checking patch\|Applied patch\)' || true
    echo "applied $p"
  done
  cp -r "$series" "$applied"
fi
# What the hybrid build can take: see the header.
T=llvm/lib/Target/AMDGPU
mapfile -t changed < <(cat "$series"/*.patch | sed -n 's,^+++ b/,,p' | sort -u)
sources=("$T/AMDGPUTargetMachine.cpp")
for f in "${changed[@]}"; do
  case "$f" in
    llvm/test/*) ;;
    $T/CMakeLists.txt | $T/*.def) ;;
    $T/*/*) die "$f: only files directly in $T are supported" ;;
    $T/*.td) die "$f: a .td change needs the whole target rebuilt" ;;
    $T/*.cpp) [ "$f" = "${sources[0]}" ] || sources+=("$f") ;;
    $T/*.h)
      if cat "$series"/*.patch | awk -v f="$f" '
           /^diff --git/ { in_f = ($3 == "a/" f); next }
           in_f && /^-/ && !/^--- / { bad = 1 } END { exit !bad }'; then
        die "$f: the series removes lines from an existing header"
      fi ;;
    *) die "$f: the hybrid build only handles files in $T and llvm/test" ;;
  esac
done
echo "${#sources[@]} target files to compile"
step_done

# --- configure ---------------------------------------------------------------
step configure "LLVM's CMake (AMDGPU, Release, no assertions, RTTI)"
build=$work/build
cmake_args=(-G Ninja -S "$src/llvm" -B "$build"
  -DCMAKE_BUILD_TYPE=Release -DLLVM_TARGETS_TO_BUILD=AMDGPU
  -DLLVM_ENABLE_ASSERTIONS=OFF -DLLVM_ENABLE_RTTI=ON
  -DLLVM_TABLEGEN="$LLVM/bin/llvm-tblgen"
  -DCMAKE_C_COMPILER="$CC" -DCMAKE_CXX_COMPILER="$CXX"
  -DLLVM_INCLUDE_TESTS=OFF -DLLVM_INCLUDE_UTILS=OFF -DLLVM_INCLUDE_BENCHMARKS=OFF
  -DLLVM_INCLUDE_EXAMPLES=OFF -DLLVM_INCLUDE_DOCS=OFF -DLLVM_ENABLE_BINDINGS=OFF)
if [ -f "$build/build.ninja" ] && [ -f "$build/.intree-args" ] &&
   [ "$(cat "$build/.intree-args")" = "${cmake_args[*]}" ]; then
  echo "reusing $build (ninja reconfigures if the series changed CMakeLists.txt)"
else
  rm -rf "$build"
  run "$logs/configure.log" cmake "${cmake_args[@]}"
  echo "${cmake_args[*]}" > "$build/.intree-args"
fi
step_done

# --- tablegen ----------------------------------------------------------------
step tablegen "the generated files the compiled sources include"
# Debian's public headers (its llvm-config.h, abi-breaking.h, Intrinsics*.h)
# come last, after the target's own and generated headers.
base_flags=($($LLVM_CONFIG --cxxflags) -O2 -DNDEBUG -g0 -funwind-tables
            -ffunction-sections -fdata-sections -fvisibility-inlines-hidden)
target_inc=(-I"$build/lib/Target/AMDGPU" -I"$src/$T")
# llc is Debian's: all of Debian's targets (Debian's llvm-config.h names X86
# the native target, which llvm/Support/TargetSelect.h needs).
llc_inc=(-I"$src/llvm/tools/llc")
mapfile -t llc_sources < <(cd "$src" && ls llvm/tools/llc/*.cpp)
# -MG lists the headers that do not exist yet instead of failing.
missing_incs() {
  local f
  {
    for f in "${sources[@]}"; do
      "${NICE[@]}" "$CXX" "${target_inc[@]}" "${base_flags[@]}" -MM -MG "$src/$f"
    done
    for f in "${llc_sources[@]}"; do
      "${NICE[@]}" "$CXX" "${llc_inc[@]}" "${base_flags[@]}" -DLLVM_BUILD_STATIC -MM -MG "$src/$f"
    done
  } | tr ' \\' '\n\n' | grep -v -e '^$' -e ':$' | grep -v '^/' | sort -u
}
ninja_targets=$(ninja -C "$build" -t targets all)
for round in 1 2 3; do
  mapfile -t incs < <(missing_incs)
  [ ${#incs[@]} -gt 0 ] || break
  [ "$round" -lt 3 ] || die "still missing after tablegen: ${incs[*]}"
  outs=()
  for i in "${incs[@]}"; do
    o=$(sed -n "s,^\\([^:]*/$i\\): CUSTOM_COMMAND\$,\\1,p" <<< "$ninja_targets" | head -1)
    [ -n "$o" ] || die "no build rule generates $i"
    outs+=("$o")
  done
  echo "generating: ${incs[*]}"
  run "$logs/tablegen-$round.log" ninja -C "$build" -j "$jobs" "${outs[@]}"
done
step_done

# --- compile -----------------------------------------------------------------
step compile "${#sources[@]} target files and ${#llc_sources[@]} llc files"
hyb=$work/hybrid
mkdir -p "$hyb/lib" "$hyb/bin"
# LLVM's warning flags for the series' own files, so their warnings show.
warn=(-Wall -Wextra -Wno-unused-parameter -Wwrite-strings -Wcast-qual
      -Wmissing-field-initializers -Wimplicit-fallthrough -Wcovered-switch-default
      -Wno-noexcept-type -Wnon-virtual-dtor -Wdelete-non-virtual-dtor
      -Wsuggest-override -Wstring-conversion -Wmisleading-indentation)
q() { printf '%q ' "$@"; }
linker=()
[ -x "$LLVM/bin/ld.lld" ] && linker=(-fuse-ld=lld)
base_ar=$LLVM/lib/libLLVMAMDGPUCodeGen.a
libs=$($LLVM_CONFIG --link-static --libs all-targets analysis asmprinter codegen \
         codegentypes core irprinter irreader mc mirparser passes plugins \
         remarks scalaropts selectiondag support target targetparser \
         transformutils vectorize)
syslibs=$($LLVM_CONFIG --link-static --system-libs)
{
  echo "ninja_required_version = 1.5"
  echo "rule cxx"
  echo "  command = $(q "$CXX") -MD -MF \$out.d \$flags -c \$in -o \$out"
  echo "  depfile = \$out.d"
  echo "  deps = gcc"
  echo "  description = CXX \$in"
  echo "rule archive"
  # A copy of Debian's archive: its AMDGPUTargetMachine.cpp.o replaced, the
  # series' objects added.
  echo "  command = rm -f \$out.tmp && cp \$base \$out.tmp && $LLVM/bin/llvm-ar d \$out.tmp AMDGPUTargetMachine.cpp.o && $LLVM/bin/llvm-ar rs \$out.tmp \$in && mv \$out.tmp \$out"
  echo "  description = AR \$out"
  echo "rule link"
  echo "  command = $(q "$CXX" "${linker[@]}") -o \$out \$in -L$hyb/lib -L$LLVM/lib $libs $syslibs"
  echo "  description = LINK \$out"
  objs=() llc_objs=()
  for f in "${sources[@]}"; do
    o=obj/target/$(basename "$f").o
    flags=("${target_inc[@]}" "${base_flags[@]}")
    [ "$f" = "${sources[0]}" ] || flags+=("${warn[@]}")
    echo "build $o: cxx $src/$f"
    echo "  flags = $(q "${flags[@]}")"
    objs+=("$o")
  done
  for f in "${llc_sources[@]}"; do
    o=obj/llc/$(basename "$f").o
    echo "build $o: cxx $src/$f"
    echo "  flags = $(q "${llc_inc[@]}" "${base_flags[@]}" -DLLVM_BUILD_STATIC)"
    llc_objs+=("$o")
  done
  echo "build objs: phony ${objs[*]} ${llc_objs[*]}"
  echo "build lib/libLLVMAMDGPUCodeGen.a: archive ${objs[*]} | $base_ar"
  echo "  base = $base_ar"
  echo "build bin/llc: link ${llc_objs[*]} | lib/libLLVMAMDGPUCodeGen.a"
} > "$hyb/build.ninja.new"
if ! cmp -s "$hyb/build.ninja.new" "$hyb/build.ninja"; then
  mv "$hyb/build.ninja.new" "$hyb/build.ninja"
else
  rm "$hyb/build.ninja.new"
fi
# New members must not shadow ones of Debian's archive.
members=$($LLVM/bin/llvm-ar t "$base_ar")
for o in "${objs[@]:1}"; do
  ! grep -qxF "$(basename "$o")" <<< "$members" ||
    die "$(basename "$o") is already a member of $base_ar"
done
grep -qx AMDGPUTargetMachine.cpp.o <<< "$members" ||
  die "$base_ar has no AMDGPUTargetMachine.cpp.o"
if ! "${NICE[@]}" ninja -C "$hyb" -j "$jobs" objs > "$logs/compile.log" 2>&1; then
  grep -E -A3 'error:|FAILED:' "$logs/compile.log" | head -n 80 >&2
  die "compile failed (full log: $logs/compile.log)"
fi
nwarn=$(grep -c 'warning:' "$logs/compile.log" || true)
echo "$nwarn compiler warnings in the files compiled now (LLVM's warning flags on the series' files; $logs/compile.log)"
grep 'warning:' "$logs/compile.log" | head -n 20 || true
step_done

# --- link --------------------------------------------------------------------
step link "llc with Debian's static LLVM libraries"
run "$logs/link.log" ninja -C "$hyb" -j "$jobs" bin/llc
llc=$hyb/bin/llc
stock=$LLVM/bin/llc
echo "$llc: $(du -h "$llc" | cut -f1)"
"$llc" -version | grep -q amdgcn || die "$llc has no amdgcn target"
# The option off, the pipelines are Debian's llc's; on, it only adds the pass
# (and in the legacy PM the analyses it needs), between the memory legalizer
# and the waitcnt insertion.
printf 'define amdgpu_kernel void @k() {\n  ret void\n}\n' > "$hyb/empty.ll"
pipeline_check() { # NAME ANCHOR PASS NEXT LLC-ARGS...
  local name=$1 anchor=$2 pass=$3 next=$4; shift 4
  local a b c m
  # One pass a line (the new PM prints them separated by commas); the legacy
  # PM's "Pass Arguments:" lines only repeat the pass list.
  a=$("$stock" -mtriple=amdgcn-amd-amdhsa -mcpu=gfx942 "$@" -o /dev/null "$hyb/empty.ll" 2>&1 |
      tr ',' '\n' | grep -v 'Pass Arguments:') || die "$stock $*"
  b=$("$llc" -mtriple=amdgcn-amd-amdhsa -mcpu=gfx942 "$@" -o /dev/null "$hyb/empty.ll" 2>&1 |
      tr ',' '\n' | grep -v 'Pass Arguments:') || die "$llc $*"
  c=$("$llc" -mtriple=amdgcn-amd-amdhsa -mcpu=gfx942 -amdgpu-lds-barriers-in-pipeline "$@" \
        -o /dev/null "$hyb/empty.ll" 2>&1 | tr ',' '\n' | grep -v 'Pass Arguments:') ||
    die "$llc -amdgpu-lds-barriers-in-pipeline $*"
  [ "$a" = "$b" ] || { diff <(echo "$a") <(echo "$b") | head >&2; die "$name: pipeline differs from Debian's llc"; }
  m=$(diff --old-line-format='-%L' --new-line-format='+%L' --unchanged-line-format=' %L' \
        <(echo "$b") <(echo "$c") || true)
  ! grep -q '^-' <<< "$m" || { grep '^[-+]' <<< "$m" >&2; die "$name: the option removes passes"; }
  awk -v a="$anchor" -v p="$pass" -v n="$next" '
    index($0, a) && !ia { ia = NR } index($0, p) && /^\+/ && !ip { ip = NR }
    index($0, n) && ip && !in_ { in_ = NR }
    END { exit !(ia && ip && in_ && ia < ip && ip < in_) }' <<< "$m" ||
    { grep -n '^[-+]' <<< "$m" >&2; die "$name: '$pass' is not between '$anchor' and '$next'"; }
  echo "$name: the pipeline is Debian's llc's; the option adds, after '$anchor':" \
       "$(grep '^+' <<< "$m" | sed 's/^+ *//' | paste -sd, | sed 's/,/, /g')"
}
pipeline_check "legacy PM -O2" "SI Memory Legalizer" "AMDGPU LDS barrier placement" \
  "SI insert wait instructions" -O2 -debug-pass=Structure
pipeline_check "new PM -O2" "si-memory-legalizer" "amdgpu-lds-barriers" \
  "si-insert-waitcnts" -O2 -enable-new-pm -print-pipeline-passes
# The new pass manager's pass (-passes=, which no test uses) does what the
# legacy one (-run-pass=) does, on the series' MIR tests.
n=0
for f in "$src"/llvm/test/CodeGen/AMDGPU/lds-barriers/*.mir; do
  args=(-mtriple=amdgcn-amd-amdhsa -mcpu=gfx942 "$f" -o -)
  cmp -s <("$llc" -passes=amdgpu-lds-barriers "${args[@]}" 2>&1) \
         <("$llc" -run-pass=amdgpu-lds-barriers "${args[@]}" 2>&1) ||
    die "-passes=amdgpu-lds-barriers and -run-pass=amdgpu-lds-barriers differ on $f"
  n=$((n + 1))
done
echo "-passes=amdgpu-lds-barriers: the same output as -run-pass= on $n MIR tests"
step_done

# --- target facts ------------------------------------------------------------
step facts "the in-tree target facts (SIInstrInfo) against the plugin's (names)"
plugin=${BUILD_DIR:-$root/build}/lib/AMDGPULDSBarriers.so
[ -f "$plugin" ] || die "$plugin: build the plugin first (utils/build.sh)"
facts_args=()
for cpu in gfx942 gfx1030 gfx1100 gfx1201 gfx1250; do
  for side in plugin intree; do
    tool=("$llc"); [ $side = intree ] || tool=("$stock" -load="$plugin")
    "${tool[@]}" -mtriple=amdgcn-amd-amdhsa -mcpu=$cpu -amdgpu-lds-barriers-in-pipeline \
      -amdgpu-lds-barriers-print-target-facts -o /dev/null "$hyb/empty.ll" \
      2> "$logs/facts-$cpu-$side.txt" || die "$side facts of $cpu"
  done
  facts_args+=("$cpu:$logs/facts-$cpu-plugin.txt:$logs/facts-$cpu-intree.txt")
done
python3 "$root/utils/compare_target_facts.py" "$root/llvm-patches/target-facts.explained" \
  "${facts_args[@]}" || die "the target facts differ unexplained (llvm-patches/target-facts.explained)"
step_done

# --- tests -------------------------------------------------------------------
step tests "lit: the series' in-tree tests and upstream's llc-pipeline tests"
lt=$work/lit
rm -rf "$lt"; mkdir -p "$lt/bin" "$lt/tests/upstream"
ln -s "$llc" "$lt/bin/llc"
cp -r "$src/llvm/test/CodeGen/AMDGPU/lds-barriers" "$lt/tests/"
for t in llc-pipeline.ll llc-pipeline-npm.ll; do
  if [ -f "$src/llvm/test/CodeGen/AMDGPU/$t" ]; then
    cp "$src/llvm/test/CodeGen/AMDGPU/$t" "$lt/tests/upstream/"
  else
    echo "note: $t is not in the source"
  fi
done
cat > "$lt/tests/lit.cfg.py" <<EOF
# Written by utils/intree-check.sh: the built llc first on PATH, LLVM 22's
# FileCheck, not, count and split-file next, and lit's internal shell, as
# llvm/test/lit.cfg.py has it.
import os
import lit.formats

config.name = "lds-barriers-intree"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".ll", ".mir"]
config.excludes = ["Inputs"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = "$lt/out"
config.targets = frozenset(["AMDGPU"])
config.environment["PATH"] = os.pathsep.join(
    ["$lt/bin", "$LLVM/bin", "/usr/bin", "/bin"])
EOF
cat > "$lt/tests/upstream/lit.local.cfg" <<'EOF'
# llc-pipeline.ll REQUIRES asserts upstream; this llc, like Debian's, has
# none, and Debian's llc 22.1.8 passes it all the same (the pipeline does
# not depend on them), so it runs here as a check of the patched pipeline.
config.available_features.add("asserts")
EOF
echo "$(find "$lt/tests/lds-barriers" -name '*.ll' -o -name '*.mir' | wc -l) in-tree tests"
set +e
"${NICE[@]}" "$LLVM/bin/lit" -sv --no-progress-bar -j "$jobs" "$lt/tests" 2>&1 | tee "$logs/lit.log"
lit_rc=${PIPESTATUS[0]}
set -e
# The tests that carry upstream's NOTE line: upstream's own script, run with
# the built llc, writes the checks they have.
ut=$work/update-checks; rm -rf "$ut"; mkdir -p "$ut"
n=0
for t in $(grep -l '^# NOTE: Assertions have been autogenerated by utils/update_mir_test_checks.py' \
             "$lt/tests/lds-barriers/"*.mir); do
  cp "$t" "$ut/"
  python3 "$src/llvm/utils/update_mir_test_checks.py" --llc-binary "$llc" "$ut/$(basename "$t")" \
    > "$logs/update-checks.log" 2>&1 || die "update_mir_test_checks.py failed on $t"
  cmp -s "$t" "$ut/$(basename "$t")" ||
    { diff "$t" "$ut/$(basename "$t")" | head -20; echo "$(basename "$t"): upstream's script writes other checks"; lit_rc=1; }
  n=$((n + 1))
done
echo "update_mir_test_checks.py: the checks of the $n tests with its NOTE line, unchanged"
step_done "lit exit $lit_rc"

# --- the stack ---------------------------------------------------------------
# Each patch on the ones before it (the whole series is checked above): the
# target files it modifies as patches 1..k leave them (the later patches'
# hunks reverted), AMDGPUTargetMachine.cpp compiled from them, an llc
# linked with the objects of patches 1..k only, every reference among the
# series' objects resolved within them, and the tests of patches 1..k.
step stack "each patch on the ones before it: builds, links, passes its tests"
hyb_llc_objs=("${llc_objs[@]/#/$hyb/}")
new_cpps() { # the .cpp files patch $1 adds to the target
  awk -v t="$T/" '/^diff --git /{f=$4; sub(/^b\//, "", f); n=0}
                   /^new file mode/{n=1}
                   /^\+\+\+ /{if (n && index(f, t) == 1 && f ~ /\.cpp$/) print f}' "$1"
}
new_tests() { # the tests patch $1 adds
  sed -n "s,^+++ b/llvm/test/CodeGen/AMDGPU/lds-barriers/,,p" "$1"
}
stack_rc=0
for ((k = 1; k < ${#patches[@]}; k++)); do
  sk=$work/stack/$k
  rm -rf "$sk"; mkdir -p "$sk/src/$T" "$sk/bin" "$sk/lib" "$sk/tests/lds-barriers"
  for f in "$T/AMDGPU.h" "$T/AMDGPUPassRegistry.def" "$T/AMDGPUTargetMachine.cpp"; do
    cp "$src/$f" "$sk/src/$f"
  done
  for ((j = ${#patches[@]}; j > k; j--)); do
    (cd "$sk/src" && git apply -R --include="$T/AMDGPU.h" \
       --include="$T/AMDGPUPassRegistry.def" --include="$T/AMDGPUTargetMachine.cpp" \
       "$series/${patches[j-1]}") || die "patch $j does not come out of the registration files"
  done
  mine=() tests=()
  for ((j = 1; j <= k; j++)); do
    while read -r f; do mine+=("$hyb/obj/target/$(basename "$f").o"); done \
      < <(new_cpps "$series/${patches[j-1]}")
    while read -r t; do tests+=("$t"); done < <(new_tests "$series/${patches[j-1]}")
  done
  # Every reference of the series' objects to each other stays within 1..k.
  undef=$(comm -23 \
    <("$LLVM/bin/llvm-nm" --undefined-only --format=just-symbols "${mine[@]}" | sort -u) \
    <("$LLVM/bin/llvm-nm" --defined-only --format=just-symbols "${mine[@]}" | sort -u) |
    grep -e ldsbarriers -e AMDGPULDS || true)
  [ -z "$undef" ] || { echo "$undef" | head >&2; die "patches 1..$k use what a later patch defines"; }
  "${NICE[@]}" "$CXX" -I"$sk/src/$T" "${target_inc[@]}" "${base_flags[@]}" \
    -c "$sk/src/$T/AMDGPUTargetMachine.cpp" -o "$sk/AMDGPUTargetMachine.cpp.o" \
    > "$logs/stack-$k.log" 2>&1 || die "patches 1..$k: AMDGPUTargetMachine.cpp does not compile ($logs/stack-$k.log)"
  cp "$base_ar" "$sk/lib/libLLVMAMDGPUCodeGen.a"
  "$LLVM/bin/llvm-ar" d "$sk/lib/libLLVMAMDGPUCodeGen.a" AMDGPUTargetMachine.cpp.o
  "$LLVM/bin/llvm-ar" rs "$sk/lib/libLLVMAMDGPUCodeGen.a" "$sk/AMDGPUTargetMachine.cpp.o" "${mine[@]}"
  "${NICE[@]}" "$CXX" "${linker[@]}" -o "$sk/bin/llc" "${hyb_llc_objs[@]}" -L"$sk/lib" \
    -L"$LLVM/lib" $libs $syslibs >> "$logs/stack-$k.log" 2>&1 ||
    die "patches 1..$k: llc does not link ($logs/stack-$k.log)"
  for t in "${tests[@]}"; do cp "$src/llvm/test/CodeGen/AMDGPU/lds-barriers/$t" "$sk/tests/lds-barriers/"; done
  sed -e "s,$lt/bin,$sk/bin," -e "s,$lt/out,$sk/out," "$lt/tests/lit.cfg.py" > "$sk/tests/lit.cfg.py"
  if [ ${#tests[@]} -gt 0 ]; then
    if "${NICE[@]}" "$LLVM/bin/lit" -q --no-progress-bar -j "$jobs" "$sk/tests" > "$logs/stack-lit-$k.log" 2>&1; then
      echo "patches 1..$k: ${#mine[@]} objects, llc links, ${#tests[@]} tests pass"
    else
      cat "$logs/stack-lit-$k.log"; echo "patches 1..$k: tests FAIL" ; stack_rc=1
    fi
  else
    echo "patches 1..$k: ${#mine[@]} objects, llc links, no tests of their own"
  fi
done
[ "$stack_rc" -eq 0 ] || lit_rc=1
step_done

# --- clang -------------------------------------------------------------------
# A clang with the series: clang's driver sources (clang/tools/driver of the
# same tarball) linked with Debian's static clang libraries (the
# libclang-22-dev package, downloaded and unpacked, not installed), the static
# LLVM libraries and the patched libLLVMAMDGPUCodeGen.a. It compiles a bundled
# HIP example with the pass in its pipeline and no plugin loaded, to the same
# assembly as Debian's clang with the plugin.
step clang "a clang with the series compiles a HIP example, no plugin loaded"
cl=$work/clang
mkdir -p "$cl/dev" "$cl/obj"
if [ ! -f "$cl/dev/.unpacked" ]; then
  (cd "$cl" && rm -f libclang-22-dev_*.deb && apt-get download libclang-22-dev > "$logs/clang-dev.log" 2>&1) ||
    die "cannot download libclang-22-dev ($logs/clang-dev.log)"
  dpkg-deb -x "$cl"/libclang-22-dev_*.deb "$cl/dev"
  touch "$cl/dev/.unpacked"
fi
cldev=$cl/dev/usr/lib/llvm-22
[ -f "$cl/src/driver.cpp" ] || {
  mkdir -p "$cl/src"
  tar -C "$cl/src" --strip-components=4 -xJf "$tarball" "${srcpkg}_${upver}/clang/tools/driver"
}
# The tool's main, as clang's CMake generates it; Debian links Polly into its
# tools statically (an extension every PassBuilder calls), this clang has none.
cat > "$cl/src/main.cpp" <<'EOF_MAIN'
#include "llvm/Plugins/PassPlugin.h"
#include "llvm/Support/LLVMDriver.h"
int clang_main(int Argc, char **Argv, const llvm::ToolContext &);
llvm::PassPluginLibraryInfo getPollyPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "Polly", "none", [](llvm::PassBuilder &) {}};
}
int main(int Argc, char **Argv) {
  return clang_main(Argc, Argv, {Argv[0], nullptr, false});
}
EOF_MAIN
clang_objs=()
for f in driver cc1_main cc1as_main cc1gen_reproducer_main main; do
  o=$cl/obj/$f.o
  [ "$o" -nt "$cl/src/$f.cpp" ] || "${NICE[@]}" "$CXX" "${base_flags[@]}" -I"$cldev/include" \
    -c "$cl/src/$f.cpp" -o "$o" >> "$logs/clang.log" 2>&1 || die "clang: $f.cpp ($logs/clang.log)"
  clang_objs+=("$o")
done
mapfile -t clang_libs < <(ls "$cldev"/lib/libclang*.a | grep -v -e /libclangd -e Tidy \
                            -e IncludeCleaner -e Daemon -e Query -e Doc -e Move -e Reorder \
                            -e ApplyReplacements -e ChangeNamespace)
"${NICE[@]}" "$CXX" "${linker[@]}" -o "$cl/clang" "${clang_objs[@]}" -Wl,--start-group \
  "${clang_libs[@]}" $($LLVM_CONFIG --link-static --libs all | tr ' ' '\n' | grep -v -i polly) \
  -Wl,--end-group \
  -L"$hyb/lib" -L"$LLVM/lib" $syslibs >> "$logs/clang.log" 2>&1 || die "clang does not link ($logs/clang.log)"
# The flags of utils/hip-compile.sh but the plugin's; the device libraries
# of the plugin's build.
hipflags=$(BUILD_DIR=${BUILD_DIR:-$root/build} "$root/utils/hip-compile.sh" --print-flags \
             --arch=gfx942 "$root/utils/examples/reduction.hip" -o /dev/null |
           sed -e 's/-Xclang -load -Xclang [^ ]*//' -e 's/-mllvm -amdgpu-lds-barriers-in-pipeline//')
ex=$root/utils/examples/reduction.hip
strip_ident() { grep -v -e '\.ident' -e '__hip_cuid' -e '\.file' "$1"; }
"$cl/clang" -resource-dir "$LLVM/lib/clang/22" $hipflags -S "$ex" -o "$cl/stock.s" ||
  die "the patched clang cannot compile $ex"
"$cl/clang" -resource-dir "$LLVM/lib/clang/22" $hipflags -mllvm -amdgpu-lds-barriers-in-pipeline \
  -mllvm -amdgpu-lds-barriers-strip-existing -S "$ex" -o "$cl/placed.s" ||
  die "the patched clang cannot compile $ex with the pass"
BUILD_DIR=${BUILD_DIR:-$root/build} "$root/utils/hip-compile.sh" --strip-barriers --arch=gfx942 \
  "$ex" -o "$cl/plugin.s" 2> /dev/null || die "hip-compile.sh failed on $ex"
nstock=$(grep -c '^\s*s_barrier$' "$cl/stock.s" || true)
nplaced=$(grep -c '^\s*s_barrier$' "$cl/placed.s" || true)
cmp -s <(strip_ident "$cl/placed.s") <(strip_ident "$cl/plugin.s") ||
  die "the patched clang's output differs from Debian's clang with the plugin"
echo "$cl/clang: reduction.hip for gfx942: $nstock barriers without the pass, $nplaced with it" \
     "(the author's stripped), the same assembly as Debian's clang with the plugin"
step_done

echo
echo "== step times"
for i in "${!step_names[@]}"; do
  printf '  %-10s %s\n' "${step_names[i]}" "$(fmt "${step_times[i]}")"
done
printf '  %-10s %s\n' total "$(fmt $((SECONDS - t0)))"
echo
echo "== lit summary"
sed -n '/^\(Testing Time\|Total Discovered Tests\|Failed Tests\|Unsupported Tests\)/,$p' "$logs/lit.log"
exit "$lit_rc"
