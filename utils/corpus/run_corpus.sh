#!/usr/bin/env bash
# Runs the pass and the race checker over a corpus of HIP sources (e.g. the
# public one that make_corpus.sh lays out) through utils/hip-compile.sh, and
# tabulates what they do. For each source file and each target it compiles
#   stock       without the plugin: the author's barriers
#   check       --check: races and barriers that some waves may skip, in
#               the kernel as written
#   check1d     --check --1d: the same with workgroups assumed 1-D
#   strip       --strip-barriers: the pass's barriers in place of the
#               author's, and its warnings by kind
#   strip1d     --strip-barriers --1d
# A barrier is an s_barrier (gfx9) or an s_barrier_signal (gfx12) in the
# assembly. A file whose stock compile fails (a header it needs is not
# here, host-only code, ...) is skipped with the first line of the error;
# one that makes clang crash, hang past the timeout or fail in one mode
# only is reported with the command that reproduces it.
#
# A source is a .hip, .cu, .cpp or .cc file; one that another file of its
# directory #includes is compiled as part of that file, not on its own.
# Every include/ and Common/ directory beside the file or beside one of its
# ancestors inside the corpus is put on the include path; -ferror-limit=0
# lets the checker's reports all through.
#
# usage: utils/corpus/run_corpus.sh CORPUS_DIR [OUT_DIR]
#   OUT_DIR                 default ./corpus-results; it gets
#     files.tsv             one row per file and target
#     kernels.tsv           one row per function with code and target
#                           (barriers and the pass's warnings)
#     summary.txt           the summary table, then the files of note
#     logs/TARGET/          each compile's command and messages
#                           (FILE.MODE.cmd, .err; its assembly, .s, where
#                           something broke)
#   TARGETS="gfx942 gfx1201"  targets
#   JOBS=2                  files compiled at once
#   TIMEOUT=120             seconds allowed to one compile
#   CORPUS_FLAGS="..."      more clang arguments for every compile
#   BUILD_DIR=dir           the plugin's build (as for hip-compile.sh)
#   SIZES=file              the launches the authors' host code uses
#                           (launch-sizes.txt: "FILE KERNEL=XxYxZ ..."),
#                           stated to the pass and the checker with
#                           -amdgpu-lds-barriers-workgroup-size
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
self=$root/utils/corpus/run_corpus.sh
modes="stock check check1d strip strip1d"

# One file for one target (run by xargs below): writes its rows.
if [ "${1:-}" = --one ]; then
  IFS=$'\t' read -r target file <<< "$2"
  rel=${file#"$CORPUS"/}
  id=${rel//\//__}
  log=$OUT/logs/$target
  inc=()
  d=$(dirname "$file")
  while :; do
    for s in include Common; do
      [ ! -d "$d/$s" ] || inc+=(-I"$d/$s")
    done
    if [ "$d" = "$CORPUS" ] || [ "$d" = / ]; then
      break
    fi
    d=$(dirname "$d")
  done
  read -ra user <<< "${CORPUS_FLAGS:-}"
  sized=()
  if [ -n "${SIZES:-}" ]; then
    for s in $(awk -v f="$rel" '$1 == f { $1 = ""; print }' "$SIZES"); do
      sized+=(--pass-opt=-amdgpu-lds-barriers-workgroup-size="$s")
    done
  fi
  declare -A rc secs
  for m in $modes; do
    case $m in
      stock) opts=(--stock) ;;
      check) opts=(--check "${sized[@]}") ;;
      check1d) opts=(--check --1d "${sized[@]}") ;;
      strip) opts=(--strip-barriers "${sized[@]}") ;;
      strip1d) opts=(--strip-barriers --1d "${sized[@]}") ;;
    esac
    cmd=("$root/utils/hip-compile.sh" "${opts[@]}" --arch="$target" "$file"
         -o "$log/$id.$m.s" -- -ferror-limit=0 "${inc[@]}" "${user[@]}")
    { [ -z "${BUILD_DIR:-}" ] || printf 'BUILD_DIR=%q ' "$BUILD_DIR"
      printf '%q ' "${cmd[@]}"; } > "$log/$id.$m.cmd"
    t0=$EPOCHREALTIME
    set +e
    timeout -k 10 "$TIMEOUT" "${cmd[@]}" > /dev/null 2> "$log/$id.$m.err"
    rc[$m]=$?
    set -e
    secs[$m]=$(awk "BEGIN { print $EPOCHREALTIME - $t0 }")
    # A failed stock compile: nothing more to learn from this file.
    [ "$m" != stock ] || [ "${rc[$m]}" -eq 0 ] || break
  done
  python3 - "$log" "$id" "$target" "$rel" "$modes" \
    "$(declare -p rc)" "$(declare -p secs)" <<'PY'
import os, re, subprocess, sys
log, id_, target, rel, modes = sys.argv[1:6]
def assoc(s):
    return dict(re.findall(r'\[(\w+)\]="?([^" ]*)"?', s))
rc = {k: int(v) for k, v in assoc(sys.argv[6]).items()}
secs = {k: float(v) for k, v in assoc(sys.argv[7]).items()}
path = lambda m, ext: os.path.join(log, f"{id_}.{m}.{ext}")
def read(m, ext):
    try:
        with open(path(m, ext), errors='replace') as f:
            return f.read()
    except FileNotFoundError:
        return ''
CRASH = re.compile(r'PLEASE submit a bug report|Stack dump|LLVM ERROR|'
                   r'internal error|Assertion .* failed|UNREACHABLE')
def broken(m):
    """How the compile in mode m broke, or ''."""
    if m not in rc:
        return ''
    err = read(m, 'err')
    if rc[m] in (124, 137):
        return 'timeout'
    if CRASH.search(err) or rc[m] > 128:
        return 'crash'
    return ''
def first_error(err):
    for l in err.splitlines():
        if 'error' in l:
            return re.sub(r'^\S*/', '', l.strip())[:200]
    lines = err.strip().splitlines()
    return lines[0][:200] if lines else 'no message'

# Functions of the assembly: name -> [kernel?, barriers].
def functions(m):
    fns, cur, kernels = {}, None, set()
    for l in read(m, 's').splitlines():
        t = l.split()
        if not t:
            continue
        if t[0] == '.type' and t[1].endswith(',@function'):
            fns.setdefault(t[1][:-len(',@function')], 0)
        elif t[0].endswith(':') and t[0][:-1] in fns:
            cur = t[0][:-1]
        elif t[0].startswith('.Lfunc_end'):
            cur = None
        elif t[0] in ('s_barrier', 's_barrier_signal') and cur:
            fns[cur] += 1
        elif t[0] == '.amdhsa_kernel':
            kernels.add(t[1])
    return {f: (f in kernels, n) for f, n in fns.items()}

DIAG = re.compile(r"^(warning|error): (?:in function '([^']*)': |\S+: )?"
                  r"amdgpu-lds-barriers: (.*)$")
def kind(msg):
    if 'cannot be covered' in msg: return 'uncoverable'
    if 'may write the same LDS bytes' in msg: return 'samebytes'
    return 'other'
def diags(m):
    return [DIAG.match(l).groups() for l in read(m, 'err').splitlines()
            if DIAG.match(l)]

status, reason = 'ok', ''
for m in modes.split():
    b = broken(m)
    if b:
        status = b
        reason = f'{m}: ' + (first_error(read(m, 'err')) if b == 'crash'
                             else f'no result in the time allowed')
        break
if status == 'ok' and rc['stock'] != 0:
    status, reason = 'skipped', first_error(read('stock', 'err'))
stock = functions('stock') if status == 'ok' else {}
kernels = sum(1 for k, _ in stock.values() if k)
if status == 'ok' and kernels == 0:
    status, reason = 'skipped', 'no kernel in the device code'
row = dict(target=target, file=rel, status=status, reason=reason,
           kernels=kernels if status == 'ok' else '')
if status == 'ok':
    # A pass mode that fails without a race to show for it.
    for m in ('check', 'check1d', 'strip', 'strip1d'):
        races = [d for d in diags(m) if d[0] == 'error']
        if rc[m] != 0 and not (m.startswith('check') and races):
            row['status'] = 'failed'
            row['reason'] = f'{m}: ' + first_error(read(m, 'err'))
            break
    row['author'] = sum(n for _, n in stock.values())
    strip, strip1d = functions('strip'), functions('strip1d')
    row['placed'] = sum(n for _, n in strip.values())
    row['placed_1d'] = sum(n for _, n in strip1d.values())
    for m, tag in (('strip', 'warn'), ('strip1d', 'warn1d')):
        ks = [kind(d[2]) for d in diags(m)]
        for k in ('uncoverable', 'samebytes', 'other'):
            row[f'{tag}_{k}'] = ks.count(k)
    for m in ('check', 'check1d'):
        ds = diags(m)
        row[f'{m}_rc'] = rc[m]
        row[f'{m}_races'] = sum(' race on ' in d[2] for d in ds)
        row[f'{m}_skips'] = sum('may skip' in d[2] for d in ds)
        row[f'{m}_other'] = len(ds) - row[f'{m}_races'] - row[f'{m}_skips']
    # Per function.
    warns = {}
    for d in diags('strip'):
        if d[1]:
            warns.setdefault(d[1], []).append(kind(d[2]))
    names = sorted(set(stock) | set(strip))
    try:
        demangled = subprocess.run(['/usr/lib/llvm-22/bin/llvm-cxxfilt'],
                                   input='\n'.join(names), capture_output=True,
                                   text=True).stdout.splitlines()
    except OSError:
        demangled = names
    with open(path('_', 'kernels'), 'w') as f:
        for n, dm in zip(names, demangled):
            w = warns.get(n, [])
            f.write('\t'.join(map(str, [
                target, rel, n, dm, int(stock.get(n, (0, 0))[0]),
                stock.get(n, (0, 0))[1], strip.get(n, (0, 0))[1],
                strip1d.get(n, (0, 0))[1], w.count('uncoverable'),
                w.count('samebytes'), w.count('other')])) + '\n')
for m in modes.split():
    row[f't_{m}'] = f'{secs[m]:.2f}' if m in secs else ''
with open(path('_', 'row'), 'w') as f:
    f.write(repr(row) + '\n')
PY
  # The assembly has been read; keep it only where something broke.
  grep -q "'status': 'ok'" "$log/$id._.row" && rm -f "$log/$id".*.s
  exit 0
fi

[ $# -ge 1 ] || { sed -n 2,37p "$0" >&2; exit 2; }
CORPUS=$(cd "$1" && pwd)
OUT=$(mkdir -p "${2:-corpus-results}" && cd "${2:-corpus-results}" && pwd)
export CORPUS OUT TIMEOUT=${TIMEOUT:-120}
targets=${TARGETS:-gfx942 gfx1201}
for t in $targets; do
  rm -rf "$OUT/logs/$t"
  mkdir -p "$OUT/logs/$t"
done

# The sources, less those that a file of their directory includes.
mapfile -t all < <(find "$CORPUS" -type f \( -name '*.hip' -o -name '*.cu' \
                     -o -name '*.cpp' -o -name '*.cc' \) | LC_ALL=C sort)
srcs=()
for f in "${all[@]}"; do
  b=$(basename "$f")
  if grep -qsE "^[[:space:]]*#[[:space:]]*include[[:space:]]*\"(\./)?${b//./\\.}\"" \
       "$(dirname "$f")"/*; then
    continue
  fi
  srcs+=("$f")
done
echo "run_corpus: ${#srcs[@]} sources (of ${#all[@]} files) x targets: $targets" >&2

for t in $targets; do
  for f in "${srcs[@]}"; do
    printf '%s\t%s\n' "$t" "$f"
  done
done | xargs -d '\n' -P "${JOBS:-2}" -n 1 "$self" --one

python3 - "$OUT" "$targets" "$modes" <<'PY'
import ast, glob, os, sys
out, targets, modes = sys.argv[1], sys.argv[2].split(), sys.argv[3].split()
cols = ['target', 'file', 'status', 'reason', 'kernels', 'author', 'placed',
        'placed_1d', 'warn_uncoverable', 'warn_samebytes', 'warn_other',
        'warn1d_uncoverable', 'warn1d_samebytes', 'warn1d_other',
        'check_rc', 'check_races', 'check_skips', 'check_other',
        'check1d_rc', 'check1d_races', 'check1d_skips', 'check1d_other'] + \
       [f't_{m}' for m in modes]
rows = []
for t in targets:
    for p in sorted(glob.glob(f'{out}/logs/{t}/*._.row')):
        rows.append(ast.literal_eval(open(p).read()))
with open(f'{out}/files.tsv', 'w') as f:
    f.write('\t'.join(cols) + '\n')
    for r in rows:
        f.write('\t'.join(str(r.get(c, '')) for c in cols) + '\n')
with open(f'{out}/kernels.tsv', 'w') as f:
    f.write('target\tfile\tfunction\tdemangled\tkernel\tauthor\tplaced\t'
            'placed_1d\twarn_uncoverable\twarn_samebytes\twarn_other\n')
    for t in targets:
        for p in sorted(glob.glob(f'{out}/logs/{t}/*._.kernels')):
            f.write(open(p).read())

def num(r, c):
    v = r.get(c, '')
    return int(v) if v != '' else 0
lines = []
table = []
def add(label, fn):
    table.append([label] + [fn([r for r in rows if r['target'] == t])
                            for t in targets])
done = lambda rs: [r for r in rs if r['status'] in ('ok', 'failed')]
add('files', len)
add('skipped (no compile)', lambda rs: sum(r['status'] == 'skipped' for r in rs))
add('crashed, timed out', lambda rs: sum(r['status'] in ('crash', 'timeout')
                                         for r in rs))
add('failed in one mode', lambda rs: sum(r['status'] == 'failed' for r in rs))
add('files compiled', lambda rs: len(done(rs)))
add('kernels compiled', lambda rs: sum(num(r, 'kernels') for r in done(rs)))
add("author's barriers", lambda rs: sum(num(r, 'author') for r in done(rs)))
add('placed barriers', lambda rs: sum(num(r, 'placed') for r in done(rs)))
add('placed barriers, --1d', lambda rs: sum(num(r, 'placed_1d') for r in done(rs)))
add('files placed < author', lambda rs: sum(num(r, 'placed') < num(r, 'author')
                                            for r in done(rs)))
add('files placed > author', lambda rs: sum(num(r, 'placed') > num(r, 'author')
                                            for r in done(rs)))
W = ('warn_uncoverable', 'warn_samebytes', 'warn_other')
add('files with warnings', lambda rs: sum(any(num(r, c) for c in W)
                                          for r in done(rs)))
add('  cannot be covered', lambda rs: sum(num(r, W[0]) for r in done(rs)))
add('  same LDS bytes', lambda rs: sum(num(r, W[1]) for r in done(rs)))
add('  other warnings', lambda rs: sum(num(r, W[2]) for r in done(rs)))
add('files with warnings, --1d', lambda rs: sum(
    any(num(r, c.replace('warn', 'warn1d')) for c in W) for r in done(rs)))
for m, tag in (('check', ''), ('check1d', ', --1d')):
    add(f'files with checker reports{tag}', lambda rs, m=m: sum(
        num(r, f'{m}_races') + num(r, f'{m}_skips') > 0 for r in done(rs)))
    add(f'  race reports{tag}', lambda rs, m=m: sum(num(r, f'{m}_races')
                                                   for r in done(rs)))
    add(f'  may-skip reports{tag}', lambda rs, m=m: sum(num(r, f'{m}_skips')
                                                       for r in done(rs)))
for m in modes:
    add(f'seconds, {m}', lambda rs, m=m: round(sum(
        float(r[f't_{m}']) for r in rs if r.get(f't_{m}')), 1))
w = max(len(l[0]) for l in table)
lines.append(f"{'':{w}}  " + '  '.join(f'{t:>8}' for t in targets))
for l in table:
    lines.append(f'{l[0]:{w}}  ' + '  '.join(f'{v:>8}' for v in l[1:]))
lines.append('')
for r in rows:
    if r['status'] != 'ok':
        lines.append(f"{r['status']}: {r['target']} {r['file']}: {r['reason']}")
        if r['status'] in ('crash', 'timeout', 'failed'):
            m = r['reason'].split(':')[0]
            cmd = f"{out}/logs/{r['target']}/{r['file'].replace('/', '__')}.{m}.cmd"
            if os.path.exists(cmd):
                lines.append('  reproduce: ' + open(cmd).read().strip())
lines.append('')
ok = [r for r in rows if r['status'] == 'ok']
def top(label, key, n=8):
    # Per file, the value for each target; the largest first.
    by = {}
    for r in ok:
        by.setdefault(r['file'], {})[r['target']] = key(r)
    best = sorted((f for f in by if max(by[f].values()) > 0),
                  key=lambda f: (-max(by[f].values()), f))[:n]
    if best:
        lines.append(f"{label} ({', '.join(targets)}):")
        lines.extend('  ' + ' '.join(f"{by[f].get(t, '-'):>6}" for t in targets)
                     + f'  {f}' for f in best)
top('most warnings (strip)', lambda r: sum(num(r, c) for c in W))
top("most barriers placed beyond the author's",
    lambda r: num(r, 'placed') - num(r, 'author'))
top("barriers placed short of the author's",
    lambda r: num(r, 'author') - num(r, 'placed'))
top('most checker reports (races + may skip)',
    lambda r: num(r, 'check_races') + num(r, 'check_skips'), 12)
open(f'{out}/summary.txt', 'w').write('\n'.join(lines) + '\n')
print('\n'.join(lines))
PY
