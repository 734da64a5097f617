#!/usr/bin/env bash
# The browser tests drive Debian's chromium headless. Install it when it is missing.
set -euo pipefail
if command -v chromium >/dev/null 2>&1; then
  exit 0
fi
if [ "$(id -u)" != "0" ]; then
  echo "ensure-browser: chromium is not installed and this user cannot install it." >&2
  echo "ensure-browser: run 'sudo apt-get install -y chromium' (Debian/Ubuntu), then run the tests again." >&2
  exit 1
fi
echo "ensure-browser: installing Debian chromium for the browser tests..." >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends chromium >/dev/null
chromium --version >&2
