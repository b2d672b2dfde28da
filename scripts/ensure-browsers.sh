#!/usr/bin/env bash
# Makes sure the browser the end-to-end tests run in is on this machine before `npm test` spends minutes on
# the build and the unit tests. The tests use Debian's chromium-headless-shell, or the full chromium when the
# shell is missing (scripts/chromium.mjs); E2E_CHROME_PATH names any other Chromium build.
# Where it can (root, with apt-get), it installs Debian's packages itself, as .ci/run does; otherwise it stops at
# once and prints the command to run. Exit status 0 when a browser is ready.
set -uo pipefail

works() { [[ -x "$1" ]] && "$1" --version >/dev/null 2>&1; }

if [[ -n "${E2E_CHROME_PATH:-}" ]]; then
  works "$E2E_CHROME_PATH" && exit 0
  echo "E2E_CHROME_PATH is set to '$E2E_CHROME_PATH', which is not a Chromium that runs here." >&2
  echo "Point it at a working Chromium, or unset it to use Debian's chromium-headless-shell." >&2
  exit 1
fi

shell=/usr/bin/chromium-headless-shell
full=${CHROME_PATH:-/usr/bin/chromium}
works "$shell" && exit 0

command=(apt-get install -y chromium chromium-headless-shell)
if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing Debian's chromium and chromium-headless-shell for the browser tests..."
  export DEBIAN_FRONTEND=noninteractive
  if apt-get update -qq && "${command[@]}" -qq >/dev/null; then
    works "$shell" && exit 0
  fi
  echo "Installing the browsers failed." >&2
fi
if works "$full"; then
  # The full browser runs the tests too, at about twice the CPU.
  echo "chromium-headless-shell is missing; the browser tests run in $full (slower)."
  exit 0
fi
echo "The browser tests need Debian's Chromium, which is not installed. Run:" >&2
echo "  sudo ${command[*]}" >&2
echo "then npm test again (or set E2E_CHROME_PATH to a Chromium build)." >&2
exit 1
