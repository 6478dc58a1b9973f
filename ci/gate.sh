#!/usr/bin/env bash
# The CI gate: the main job and the test suite, then a Markdown summary for the CI service
# (written to build/reports/summary.md and, on GitHub Actions, to $GITHUB_STEP_SUMMARY).
# JUnit files: build/reports/tests.junit.xml (ctest), build/reports/matrix.junit.xml (matrix).
set -uo pipefail
cd "$(dirname "$0")/.."
export CI=true
status=0
./run_checks.sh --strict "$@" || status=1
./run_checks.sh test --no-setup "$@" || status=1
python3 ci/junit_summary.py build/reports/*.junit.xml > build/reports/summary.md || status=1
cat build/reports/summary.md
[ -n "${GITHUB_STEP_SUMMARY:-}" ] && cat build/reports/summary.md >> "$GITHUB_STEP_SUMMARY"
exit $status
