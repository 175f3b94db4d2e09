#!/usr/bin/env bash
# bv-run.sh <ledgerd> <viewers>: a fresh, open ledgerd, then board_viewers against it.
set -u
dir=$(mktemp -d)
"$1" --data-dir "$dir" --listen 127.0.0.1:50951 --http-listen 127.0.0.1:18580 > "$dir/out" 2>&1 &
pid=$!
for i in $(seq 1 100); do grep -q "grpc" "$dir/out" 2>/dev/null && break; sleep 0.1; done
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
/work/main/target/release/examples/board_viewers --server http://127.0.0.1:50951 --http 127.0.0.1:18580 --pid $pid --viewers "$2"
echo "ledgerd RSS after: $(grep VmRSS /proc/$pid/status | awk '{print $2, $3}')"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
kill $pid; wait $pid 2>/dev/null; rm -rf "$dir"
