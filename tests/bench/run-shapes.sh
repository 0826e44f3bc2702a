#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Ingestion benchmark over the shapes real training logs come in: rankscope diagnose against ripgrep on
# the same generated incident, shape by shape, in the same run.
#
#   tests/bench/run-shapes.sh BUILD_DIR
#
# BENCH_SIZE (default 256M): the folder shapes' size (real: the real-found logs tiled to it); the single-file
# consoles get 30% of it (the issue's 1 GB / 300 MB runs: BENCH_SIZE=1G). BENCH_RANKS (default 1024) ranks,
# BENCH_RUNS (default 5) runs of each tool, alternating; the median wall time and the peak RSS (GNU time's
# "Maximum resident set size") are printed. BENCH_SHAPES: a space-separated subset of the shape names below.
# Incidents are generated once per parameter set under ${RANKSCOPE_BENCH_CACHE:-${TMPDIR:-/tmp}/rankscope-bench}.
set -euo pipefail

[[ $# -eq 1 && "$1" != -h && "$1" != --help ]] || { sed -n '3,12p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 1; }
build_dir=$(cd "$1" 2>/dev/null && pwd) || { echo "run-shapes: no such build folder: $1" >&2; exit 1; }
size=${BENCH_SIZE:-256M}
ranks=${BENCH_RANKS:-1024}
runs=${BENCH_RUNS:-5}
shapes=${BENCH_SHAPES:-"nccl pylog console glog srun nccl-gz nccl-tgz real"}
gen="$build_dir/tests/gen/rankscope-gen"
rankscope="$build_dir/app/rankscope"
pattern='error|exception|timeout|failed'
for tool in "$gen" "$rankscope"; do
    [[ -x "$tool" ]] || { echo "run-shapes: $tool not built" >&2; exit 1; }
done
command -v rg >/dev/null || { echo "run-shapes: ripgrep (rg) is required: apt-get install ripgrep" >&2; exit 1; }
[[ -x /usr/bin/time ]] || { echo "run-shapes: GNU time is required: apt-get install time" >&2; exit 1; }
bytes_of() { awk -v s="$1" 'BEGIN { u = toupper(substr(s, length(s))); n = s + 0;
    if (u == "K") n *= 1024; else if (u == "M") n *= 1048576; else if (u == "G") n *= 1073741824; printf "%d", n }'; }
single=$(( $(bytes_of "$size") * 3 / 10 ))
cache=${RANKSCOPE_BENCH_CACHE:-${TMPDIR:-/tmp}/rankscope-bench}/shapes-r$ranks-s$size
mkdir -p "$cache"

# generate NAME LAYOUT SIZE [--gzip]: the incident folder $cache/NAME, once.
generate() {
    local name=$1 layout=$2 bytes=$3
    shift 3
    [[ -f "$cache/$name.done" ]] && return 0
    rm -rf "$cache/$name" "$cache/$name.partial"
    echo "run-shapes: generating $name ($layout, $bytes bytes, $ranks ranks)" >&2
    "$gen" --ranks "$ranks" --size "$bytes" --layout "$layout" --seed 1 "$@" -o "$cache/$name.partial" >&2
    mv "$cache/$name.partial" "$cache/$name"
    touch "$cache/$name.done"
}

# tile_real NAME BYTES: the folder $cache/NAME, once: every real log under tests/data/real-found (the shapes
# real pastes come in: wrappers, colour codes, wraps, tracebacks), each repeated to fill BYTES in all. Failure
# lines are a quarter of its lines, against almost none in the generated shapes: the per-event path.
tile_real() {
    local name=$1 bytes=$2 src total reps
    [[ -f "$cache/$name.done" ]] && return 0
    src="$(cd "$(dirname "$0")/../data/real-found" && pwd)"
    rm -rf "$cache/$name" "$cache/$name.partial"
    mkdir -p "$cache/$name.partial"
    total=$(find "$src" -type f ! -name '*.json' ! -name '*.md' ! -name '*.gz' ! -name '*.xml' ! -name '*.tar' \
        -printf '%s\n' | awk '{ s += $1 } END { print s }')
    reps=$(( bytes / total > 0 ? bytes / total : 1 ))
    echo "run-shapes: tiling $src ($total bytes) $reps times" >&2
    local i=0 f
    while IFS= read -r -d '' f; do
        i=$((i + 1))
        awk -v n="$reps" '{ l[NR] = $0 } END { for (r = 0; r < n; ++r) for (j = 1; j <= NR; ++j) print l[j] }' \
            "$f" >"$cache/$name.partial/$(printf '%04d' "$i")-$(basename "$(dirname "$f")").log"
    done < <(find "$src" -type f ! -name '*.json' ! -name '*.md' ! -name '*.gz' ! -name '*.xml' ! -name '*.tar' \
        -print0 | sort -z)
    mv "$cache/$name.partial" "$cache/$name"
    touch "$cache/$name.done"
}

# measure OUT CMD...: runs CMD with stdout discarded; appends "wall rss_kib status" to OUT.
measure() {
    local out=$1 t0 t1 status
    shift
    t0=$(date +%s.%N)
    set +e
    /usr/bin/time -v -o "$cache/time.txt" "$@" >/dev/null 2>"$cache/stderr.txt"
    status=$?
    set -e
    t1=$(date +%s.%N)
    local rss
    rss=$(awk -F': ' '/Maximum resident set size/ { print $2 }' "$cache/time.txt")
    echo "$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }') ${rss:-0} $status" >>"$out"
}
median() { awk '{ print $1 }' "$1" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
peak() { awk '{ print $2 }' "$1" | sort -g | tail -n 1 | awk '{ printf "%.0f", $1 / 1024 }'; }

printf '%-10s %6s %8s %10s %8s %7s %9s %9s  %s\n' shape files MiB "rankscope" rg ratio "rs MiB" "rg MiB" "rg command"
for shape in $shapes; do
    input=""
    rgcmd=()
    case $shape in
    nccl | pylog) generate "$shape" "$shape" "$(bytes_of "$size")" ;;
    console | glog | srun) generate "$shape" "$shape" "$single" ;;
    real) tile_real "$shape" "$(bytes_of "$size")" ;;
    nccl-gz) generate "$shape" nccl "$(bytes_of "$size")" --gzip ;;
    nccl-tgz)
        generate nccl nccl "$(bytes_of "$size")"
        if [[ ! -f "$cache/nccl.tar.gz.done" ]]; then
            echo "run-shapes: tar -czf $cache/nccl.tar.gz" >&2
            tar -C "$cache" -czf "$cache/nccl.tar.gz" nccl
            touch "$cache/nccl.tar.gz.done"
        fi
        ;;
    *) echo "run-shapes: unknown shape $shape" >&2; exit 1 ;;
    esac
    case $shape in
    nccl-gz)
        input="$cache/$shape"
        rgcmd=(rg -z -n -i "$pattern" "$input") ;;
    nccl-tgz)
        # rg -z cannot read a tar: the archive is streamed through tar into rg, which is what it takes.
        input="$cache/nccl.tar.gz"
        rgcmd=(sh -c "tar -xzOf '$input' | rg -n -i '$pattern'") ;;
    *)
        input="$cache/$shape"
        rgcmd=(rg -n -i "$pattern" "$input") ;;
    esac
    # Warm the page cache: both tools then read from memory.
    if [[ -d "$input" ]]; then find "$input" -type f -exec cat {} + >/dev/null; else cat "$input" >/dev/null; fi
    files=$(if [[ -d "$input" ]]; then find "$input" -type f | wc -l; else tar -tzf "$input" | grep -vc '/$'; fi)
    raw=$(if [[ $shape == nccl-* ]]; then du -sb "$cache/nccl" | cut -f1; else du -sb "$input" | cut -f1; fi)
    rm -f "$cache/rs.txt" "$cache/rg.txt"
    for ((run = 1; run <= runs; ++run)); do
        measure "$cache/rg.txt" "${rgcmd[@]}"
        measure "$cache/rs.txt" "$rankscope" diagnose "$input" --format json
    done
    if awk '$3 > 1 { bad = 1 } END { exit !bad }' "$cache/rs.txt"; then
        echo "run-shapes: rankscope diagnose failed on $shape: $(head -c 300 "$cache/stderr.txt")" >&2
        exit 2
    fi
    rs=$(median "$cache/rs.txt") rgw=$(median "$cache/rg.txt")
    printf '%-10s %6s %8.0f %10s %8s %6.2fx %9s %9s  %s\n' "$shape" "$files" "$(awk -v b="$raw" 'BEGIN { print b / 1048576 }')" \
        "$rs" "$rgw" "$(awk -v a="$rs" -v b="$rgw" 'BEGIN { print (b > 0 ? a / b : 0) }')" \
        "$(peak "$cache/rs.txt")" "$(peak "$cache/rg.txt")" "${rgcmd[*]}"
done
echo "(wall: median of $runs alternating runs, seconds; MiB for nccl-gz and nccl-tgz: the uncompressed folder)"
