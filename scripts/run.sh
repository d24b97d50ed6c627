#!/usr/bin/env bash
# Builds the browser planner (release) and serves it on 127.0.0.1 with the built-in example loaded.
# PORT picks the first port to try (default 8080); the next free one is used if it is taken.
set -euo pipefail
cd "$(dirname "$0")/.."

./scripts/setup.sh
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"

port="$(python3 - "${PORT:-8080}" <<'PY'
import socket, sys
start = int(sys.argv[1])
for port in range(start, start + 100):
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            continue
        print(port)
        break
else:
    sys.exit("no free port from %d to %d" % (start, start + 99))
PY
)"

echo
echo "fleetplan: building the browser app (release; the first build takes about 5 minutes on 2 cores)"
echo "fleetplan: it will be served at  http://127.0.0.1:$port/"
echo "fleetplan: (press Ctrl+C to stop)"
echo
exec trunk serve --release --cargo-profile wasm-release --offline --address 127.0.0.1 --port "$port"
