#!/usr/bin/env bash
# Usage: watchdog.sh <parent-pid> <command> [args...]
# Runs the command and ends it when the parent process dies, so a harness that is killed
# outright (SIGKILL, a crashed test runner) still leaves no server behind.
parent=$1
shift
"$@" &
child=$!
trap 'kill -TERM "$child" 2>/dev/null; wait "$child"; exit $?' TERM INT
while kill -0 "$parent" 2>/dev/null && kill -0 "$child" 2>/dev/null; do
  sleep 1 &
  wait $!
done
kill -TERM "$child" 2>/dev/null
wait "$child"
