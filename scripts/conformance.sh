#!/usr/bin/env bash
# Runs Strata's conformance tests against httpbin, a third-party HTTP test service,
# served by gunicorn on 127.0.0.1 with a free port. The server is always stopped.
set -euo pipefail
cd "$(dirname "$0")/.."

venv=.build-conformance/venv
if [ ! -x "$venv/bin/gunicorn" ]; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check httpbin gunicorn
fi

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')
log=.build-conformance/httpbin.log
"$venv/bin/gunicorn" --bind "127.0.0.1:$port" --workers 4 --threads 4 --log-level warning httpbin:app >"$log" 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true' EXIT

for _ in $(seq 1 100); do
    if python3 -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:$port/get', timeout=1)" 2>/dev/null; then
        break
    fi
    sleep 0.1
done

echo "httpbin on http://127.0.0.1:$port"
HTTPBIN_URL="http://127.0.0.1:$port" bash scripts/swift-test-watched.sh 10 --enable-all-traits --filter StrataConformanceTests
