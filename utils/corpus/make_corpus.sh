#!/usr/bin/env bash
# Lays out the public HIP corpus that run_corpus.sh reads: copies each file
# that utils/corpus/corpus.txt lists, at the commit it names, out of a local
# clone of its repository into OUT_DIR/<owner>/<name>/. Nothing is
# downloaded and nothing of the corpus belongs in this repository: give it
# clones (plain or bare) that have the listed commits.
#
# usage: utils/corpus/make_corpus.sh OUT_DIR owner/name=CLONE...
#   e.g. utils/corpus/make_corpus.sh /tmp/corpus ROCm/HIP-Examples=~/src/HIP-Examples
#   A repository of the list without a clone on the command line is left
#   out (with a note on stderr).
#   LIST=held-out.txt       another list of this directory (default
#                           corpus.txt)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
[ $# -ge 2 ] || { sed -n 2,13p "$0" >&2; exit 2; }
out=$1
shift
declare -A clone
for a in "$@"; do
  case "$a" in
    */*=*) clone[${a%%=*}]=${a#*=} ;;
    *) echo "make_corpus: expected owner/name=CLONE, got '$a'" >&2; exit 2 ;;
  esac
done
declare -A missing
n=0
while read -r repo commit path dest; do
  case "$repo" in ''|'#'*) continue ;; esac
  if [ -z "${clone[$repo]:-}" ]; then
    missing[$repo]=1
    continue
  fi
  mkdir -p "$(dirname "$out/$repo/$dest")"
  git -C "${clone[$repo]}" show "$commit:$path" > "$out/$repo/$dest"
  n=$((n + 1))
done < "$here/${LIST:-corpus.txt}"
for repo in "${!missing[@]}"; do
  echo "make_corpus: no clone given for $repo; its files are left out" >&2
done
echo "make_corpus: $n files under $out"
