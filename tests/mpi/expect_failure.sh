#!/usr/bin/env bash
# expect_failure.sh SECONDS COMMAND...: passes when COMMAND exits with an error by itself within
# SECONDS; fails when it succeeds, or when it had to be killed (a hang).
limit=$1
shift
start=$(date +%s)
timeout -k 5 "$limit" "$@"
rc=$?
elapsed=$(( $(date +%s) - start ))
if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
  echo "expect_failure: '$*' still ran after ${limit} s (killed): a failed rank left the others waiting" >&2
  exit 1
fi
if [ $rc -eq 0 ]; then
  echo "expect_failure: '$*' exited with 0 although a rank failed" >&2
  exit 1
fi
echo "expect_failure: exited with status $rc after ${elapsed} s, as expected"
exit 0
