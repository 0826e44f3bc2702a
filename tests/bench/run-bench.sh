#!/usr/bin/env bash
# Ingestion benchmark: rankscope diagnose versus a plain ripgrep over the same generated incident.
#
#   tests/bench/run-bench.sh BUILD_DIR [RANKS] [SIZE]      (defaults: 1024 ranks, 1G)
#
# The incident is generated once with BUILD_DIR/tests/gen/rankscope-gen and cached by its parameters under
# ${RANKSCOPE_BENCH_CACHE:-${TMPDIR:-/tmp}/rankscope-bench}; set RANKSCOPE_BENCH_REGEN=1 to rebuild it.
# RANKSCOPE_BENCH_LAYOUT (nccl) and RANKSCOPE_BENCH_FAULT (ib) choose the incident shape;
# RANKSCOPE_BENCH_POLL_RSS=1 reads peak RSS from /proc/<pid>/status even when GNU time is installed;
# RANKSCOPE_BENCH_RUNS (3) runs of each tool, alternating, give the median wall time.
# Exit status: 0 when both tools ran, 1 on usage/setup errors, 2 when rankscope diagnose could not run.
set -euo pipefail

usage() {
    sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 1
}

[[ $# -ge 1 && $# -le 3 ]] || usage
[[ "$1" == -h || "$1" == --help ]] && usage
build_dir=$(cd "$1" 2>/dev/null && pwd) || { echo "run-bench: no such build folder: $1" >&2; exit 1; }
ranks=${2:-1024}
size=${3:-1G}
layout=${RANKSCOPE_BENCH_LAYOUT:-nccl}
fault=${RANKSCOPE_BENCH_FAULT:-ib}
[[ "$ranks" =~ ^[0-9]+$ && "$ranks" -ge 1 ]] || { echo "run-bench: RANKS must be a positive integer, got '$ranks'" >&2; exit 1; }
[[ "$size" =~ ^[0-9]+(\.[0-9]+)?[kKmMgG]?[bB]?$ ]] || { echo "run-bench: SIZE must look like 1G or 200M, got '$size'" >&2; exit 1; }

gen="$build_dir/tests/gen/rankscope-gen"
rankscope="$build_dir/app/rankscope"
pattern='error|exception|timeout|failed'

# ---- tools: ripgrep and GNU time come from Debian packages -------------------------------------------------
need=()
command -v rg >/dev/null 2>&1 || need+=(ripgrep)
[[ -x /usr/bin/time ]] || need+=(time)
if [[ ${#need[@]} -gt 0 ]]; then
    if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null 2>&1; then
        echo "run-bench: installing ${need[*]}" >&2
        if ! apt-get install -y --no-install-recommends "${need[@]}" >/dev/null 2>&1; then
            apt-get update >/dev/null 2>&1 || true
            apt-get install -y --no-install-recommends "${need[@]}" >/dev/null 2>&1 || true
        fi
    else
        echo "run-bench: missing ${need[*]}; install with: apt-get install -y --no-install-recommends ${need[*]}" >&2
    fi
fi
command -v rg >/dev/null 2>&1 || { echo "run-bench: ripgrep (rg) is required" >&2; exit 1; }
have_gnu_time=0
[[ -x /usr/bin/time && "${RANKSCOPE_BENCH_POLL_RSS:-0}" != 1 ]] && /usr/bin/time -f %M true >/dev/null 2>&1 \
    && have_gnu_time=1

# ---- the incident, generated once per parameter set ---------------------------------------------------------
[[ -x "$gen" ]] || { echo "run-bench: $gen not found; build it: cmake --build $build_dir --target rankscope-gen" >&2; exit 1; }
cache_root=${RANKSCOPE_BENCH_CACHE:-${TMPDIR:-/tmp}/rankscope-bench}
key="r${ranks}-s${size}-${layout}-${fault}-seed1"
entry="$cache_root/$key"
incident="$entry/incident"
if [[ "${RANKSCOPE_BENCH_REGEN:-0}" == 1 || ! -f "$entry/generated.txt" || ! -d "$incident" ]]; then
    rm -rf "$entry"
    mkdir -p "$entry"
    echo "run-bench: generating $ranks ranks, $size ($layout, fault $fault) into $incident ..." >&2
    # Generate beside the final name and move it in only when complete, so an interrupted run is never reused.
    "$gen" --ranks "$ranks" --size "$size" --layout "$layout" --fault "$fault" --seed 1 -o "$entry/partial" \
        > "$entry/generated.tmp"
    mv "$entry/partial" "$incident"
    sed "s#$entry/partial#$incident#g" "$entry/generated.tmp" > "$entry/generated.txt"
    rm -f "$entry/generated.tmp"
fi
files=$(find "$incident" -type f | wc -l)
bytes=$(find "$incident" -type f -printf '%s\n' | awk '{ s += $1 } END { print s + 0 }')

# Warm the page cache so both tools read from memory.
find "$incident" -type f -exec cat {} + > /dev/null

now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", b - a }'; }
kib_to_mib() { awk -v k="$1" 'BEGIN { if (k == "") print "n/a"; else printf "%.1f", k / 1024 }'; }

# Runs "$@" with stdout to /dev/null and stderr to $err; sets run_wall, run_rss_kib, run_status.
run_measured() {
    local err=$1
    shift
    local t0 t1 timefile
    timefile=$(mktemp)
    run_rss_kib=""
    t0=$(now)
    if [[ $have_gnu_time == 1 ]]; then
        set +e
        /usr/bin/time -o "$timefile" -f '%M' "$@" > /dev/null 2> "$err"
        run_status=$?
        set -e
        run_rss_kib=$(tail -n 1 "$timefile" | tr -dc '0-9')
    else
        # No GNU time: poll the kernel's high-water mark of resident memory until the process exits.
        "$@" > /dev/null 2> "$err" &
        local pid=$! hwm
        while kill -0 "$pid" 2>/dev/null; do
            hwm=$(awk '/^VmHWM:/ { print $2 }' "/proc/$pid/status" 2>/dev/null || true)
            [[ -n "$hwm" ]] && run_rss_kib=$hwm
            sleep 0.05
        done
        set +e
        wait "$pid"
        run_status=$?
        set -e
    fi
    t1=$(now)
    run_wall=$(elapsed "$t0" "$t1")
    rm -f "$timefile"
}

errdir=$(mktemp -d)
trap 'rm -rf "$errdir"' EXIT

# Each tool runs RUNS times (RANKSCOPE_BENCH_RUNS, default 3), alternating, and the median wall time is
# reported: one run on a shared machine is noise.
runs=${RANKSCOPE_BENCH_RUNS:-3}
[[ "$runs" =~ ^[1-9][0-9]*$ ]] || { echo "run-bench: RANKSCOPE_BENCH_RUNS must be a positive integer" >&2; exit 1; }
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
maxof() { printf '%s\n' "$@" | sort -g | tail -n 1; }
rg_walls=() rs_walls=() rg_rsses=() rs_rsses=()
rs_ok=1
rs_note=""
for ((run = 1; run <= runs; ++run)); do
    run_measured "$errdir/rg.err" rg -n -i "$pattern" "$incident"
    rg_walls+=("$run_wall") rg_rsses+=("${run_rss_kib:-0}") rg_status=$run_status
    if [[ $rs_ok == 1 && -x "$rankscope" ]]; then
        run_measured "$errdir/rs.err" "$rankscope" diagnose "$incident" --format json
        rs_walls+=("$run_wall") rs_rsses+=("${run_rss_kib:-0}") rs_status=$run_status
        [[ $rs_status -gt 1 ]] && rs_ok=0
    fi
done
rg_wall=$(median "${rg_walls[@]}") rg_rss=$(maxof "${rg_rsses[@]}")
# rg exits 1 when nothing matched, 2 on errors.
if [[ $rg_status -ge 2 ]]; then
    echo "run-bench: rg failed (exit $rg_status):" >&2
    head -n 5 "$errdir/rg.err" >&2
    exit 1
fi

if [[ ! -x "$rankscope" ]]; then
    rs_ok=0
    rs_note="$rankscope not built (cmake --build $build_dir --target rankscope)"
elif [[ $rs_ok == 0 ]]; then
    # diagnose may use exit 1 for "a failure was found"; anything else means it did not do the job.
    rs_note="rankscope diagnose exited with status $rs_status: $(head -c 300 "$errdir/rs.err" | tr '\n' ' ')"
else
    rs_wall=$(median "${rs_walls[@]}") rs_rss=$(maxof "${rs_rsses[@]}")
fi

printf '\nincident: %s ranks, %s (%d files, %s bytes), layout %s, fault %s\n  %s\n\n' \
    "$ranks" "$size" "$files" "$bytes" "$layout" "$fault" "$incident"
printf '%-44s %10s %16s %6s\n' "command (median of $runs runs)" "wall (s)" "peak RSS (MiB)" "exit"
printf '%-44s %10s %16s %6s\n' "rg -n -i '$pattern'" "$rg_wall" "$(kib_to_mib "$rg_rss")" "$rg_status"
if [[ $rs_ok == 1 ]]; then
    printf '%-44s %10s %16s %6s\n' "rankscope diagnose --format json" "$rs_wall" "$(kib_to_mib "$rs_rss")" "$rs_status"
    ratio=$(awk -v a="$rs_wall" -v b="$rg_wall" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }')
    mbps=$(awk -v s="$bytes" -v t="$rs_wall" 'BEGIN { if (t > 0) printf "%.0f", s / 1048576 / t; else print "n/a" }')
    printf '\nrankscope / rg wall-time ratio: %sx   (rankscope ingests %s MiB/s)\n' "$ratio" "$mbps"
    exit 0
fi
printf '%-44s %10s %16s %6s\n' "rankscope diagnose --format json" "n/a" "n/a" "-"
printf '\nrun-bench: %s\n' "$rs_note" >&2
exit 2
