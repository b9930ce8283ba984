#!/usr/bin/env bash
# The browser test drives Debian's Chromium (never a downloaded browser). Install it when missing
# and we are root; otherwise the browser test reports that Chromium is not installed.
set -u
command -v chromium >/dev/null 2>&1 && exit 0
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium) >/dev/null 2>&1 \
    || echo "warning: could not install chromium with apt-get" >&2
fi
exit 0
