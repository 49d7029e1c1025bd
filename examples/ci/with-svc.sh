#!/bin/sh
# Runs a test command against a fresh svc, in any CI: starts svc on a free port, waits for its
# ready file, exports where it is and its keys, runs the command, and stops svc by the pid the
# ready file names (with `npx svc`, the process started here is npm's, not svc's).
#
#   examples/ci/with-svc.sh npm test
#   examples/ci/with-svc.sh pytest -q
#
# The command sees SVC_BASE_URL (…/v1), SVC_APP_URL, SVC_WRITE_KEY, SVC_READ_KEY and
# SVC_WORKSPACE_ID. Its exit status is the script's. SVC is how to run svc (default: npx svc);
# SVC_WORKDIR is where the data, log and ready files go (default: a new temporary folder, removed
# at the end).
set -eu

SVC=${SVC:-npx svc}
if [ -n "${SVC_WORKDIR:-}" ]; then
  WORK=$SVC_WORKDIR
  made=
else
  WORK=$(mktemp -d)
  made=$WORK
fi
READY="$WORK/svc-ready.json"
# svc removes a ready file left behind too, but only once it has loaded: a poll before then would
# read the old one.
rm -f "$READY"

# shellcheck disable=SC2086 # SVC is a command with its arguments
$SVC serve --port 0 --data "$WORK/svc-data.json" --ready-file "$READY" > "$WORK/svc.log" 2>&1 &
LAUNCHED=$!
stop() {
  pid=$(node -e "try{process.stdout.write(String(require(process.argv[1]).pid))}catch{}" "$READY" 2>/dev/null || true)
  kill "${pid:-$LAUNCHED}" 2>/dev/null || true
  wait "$LAUNCHED" 2>/dev/null || true
  tail -n 1 "$WORK/svc.log"
  if [ -n "$made" ]; then
    rm -rf "$made"
  fi
}
trap stop EXIT
# Cancelled (a CI job stopped, Ctrl-C): stop svc on the way out too.
trap 'exit 130' INT
trap 'exit 143' TERM

tries=0
until [ -s "$READY" ]; do
  if ! kill -0 "$LAUNCHED" 2>/dev/null || [ "$tries" -ge 300 ]; then
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
