#!/usr/bin/env bash
# tls-run.sh <ledgerd> plain|tls <dir with ca.pem server.pem server.key>: a fresh, open ledgerd
# on loopback, with or without --tls-cert, then board_viewers' appends against it (no viewers).
set -u
dir=$(mktemp -d)
flags=()
scheme=http
if [ "$2" = tls ]; then
  flags=(--tls-cert "$3/server.pem" --tls-key "$3/server.key")
  scheme=https
fi
"$1" --data-dir "$dir" --listen 127.0.0.1:50951 --http-listen 127.0.0.1:18580 "${flags[@]}" > "$dir/out" 2>&1 &
pid=$!
for i in $(seq 1 100); do grep -q "grpc" "$dir/out" 2>/dev/null && break; sleep 0.1; done
echo "$2, load before: $(cut -d' ' -f1-3 /proc/loadavg)"
ca=()
if [ "$2" = tls ]; then ca=(--tls-ca "$3/ca.pem"); fi
/work/main/target/release/examples/board_viewers --server $scheme://127.0.0.1:50951 --http 127.0.0.1:18580 \
  --pid $pid --viewers 0 --events 200 --interval-ms 20 "${ca[@]}"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
kill $pid; wait $pid 2>/dev/null; rm -rf "$dir"
