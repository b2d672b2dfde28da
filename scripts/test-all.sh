#!/usr/bin/env bash
# Runs every suite: type check, unit tests (vitest), end-to-end tests (Playwright in Debian's
# chromium, desktop and phone, against the production-like local server), then prints one
# line "N passed, N failed" summing them all. Exits non-zero when anything failed.
set -uo pipefail
cd "$(dirname "$0")/.."
export ASTRO_TELEMETRY_DISABLED=1
rm -rf test-results && mkdir -p test-results
passed=0
failed=0

count() { # count <json file> <node expression giving "passed failed">
  if [[ -s "$1" ]]; then
    read -r p f < <(node -e "const r=require('./$1'); const [p,f]=($2); console.log(p, f)") || { p=0; f=1; }
  else
    p=0; f=1 # the runner died before reporting: count it as a failure
  fi
  passed=$((passed + p)); failed=$((failed + f))
  echo ">> $3: $p passed, $f failed"
}

echo "== Type check (astro check) =="
if astro check; then passed=$((passed + 1)); echo ">> type check: passed"; else failed=$((failed + 1)); echo ">> type check: FAILED"; fi

echo "== Unit tests (vitest) =="
vitest run --reporter=default --reporter=json --outputFile=test-results/unit.json
count test-results/unit.json "[r.numPassedTests, r.numFailedTests + (r.success === false && r.numFailedTests === 0 ? 1 : 0)]" "unit"

echo "== End-to-end tests (Playwright, chromium desktop + phone) =="
playwright test
count test-results/e2e.json "[r.stats.expected + r.stats.flaky, r.stats.unexpected + (r.errors?.length ? 1 : 0)]" "e2e"

echo "$passed passed, $failed failed"
[[ $failed -eq 0 ]]
