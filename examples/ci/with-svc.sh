#!/bin/sh
# Runs a test command against a fresh svc, in any CI: starts svc on a free port, waits for its
# ready file, exports where it is and its keys, runs the command, and stops svc by its pid.
#
#   examples/ci/with-svc.sh npm test
#   examples/ci/with-svc.sh pytest -q
#
# The command sees SVC_BASE_URL (…/v1), SVC_APP_URL, SVC_WRITE_KEY, SVC_READ_KEY and
# SVC_WORKSPACE_ID. Its exit status is the script's. SVC is how to run svc (default: npx svc);
# SVC_WORKDIR is where the data and ready files go (default: a new temporary folder).
set -eu

SVC=${SVC:-npx svc}
WORK=${SVC_WORKDIR:-$(mktemp -d)}
READY="$WORK/svc-ready.json"

# shellcheck disable=SC2086 # SVC is a command with its arguments
$SVC serve --port 0 --data "$WORK/svc-data.json" --ready-file "$READY" > "$WORK/svc.log" 2>&1 &
SVC_PID=$!
stop() {
  kill "$SVC_PID" 2>/dev/null && wait "$SVC_PID" 2>/dev/null || true
  tail -n 1 "$WORK/svc.log"
}
trap stop EXIT

tries=0
until [ -s "$READY" ]; do
  if ! kill -0 "$SVC_PID" 2>/dev/null || [ "$tries" -ge 300 ]; then
    echo "svc did not start:" >&2
    cat "$WORK/svc.log" >&2
    exit 1
  fi
  tries=$((tries + 1))
  sleep 0.1
done

# The ready file is JSON; node is there wherever svc runs.
field() { node -e "const r=require(process.argv[1]);const w=r.workspaces[0]||{keys:{write:{},read:{}}};process.stdout.write(String(eval(process.argv[2])??''))" "$READY" "$1"; }
SVC_BASE_URL=$(field r.base_url)
SVC_APP_URL=$(field r.app_url)
SVC_WORKSPACE_ID=$(field w.id)
SVC_WRITE_KEY=$(field w.keys.write.key)
SVC_READ_KEY=$(field w.keys.read.key)
export SVC_BASE_URL SVC_APP_URL SVC_WORKSPACE_ID SVC_WRITE_KEY SVC_READ_KEY

set +e
"$@"
status=$?
set -e
exit "$status"
