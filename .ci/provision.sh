#!/usr/bin/env bash
# The system packages the tests use, installed in one step, and only when one is missing: when
# everything is there this runs no apt-get at all (a held dpkg lock once failed a CI run before
# any test). When something is missing, one `apt-get update` and one `apt-get install` of what
# is missing, waiting for the dpkg lock rather than failing on it.
#   chromium, fonts-wqy-zenhei: the browser tests (Debian's chromium; a CJK font for ko/zh)
#   caddy: the deployment's reverse proxy, whose configuration a server test validates
#   postgresql: the server's tests against a real PostgreSQL (tests/server/pg.sh)
# GLADE_SYSROOT (tests only) is prefixed to the files looked for.
set -euo pipefail

root="${GLADE_SYSROOT:-}"
missing=()
[ -x "$root/usr/bin/chromium" ] || missing+=(chromium)
if ! command -v fc-list >/dev/null || ! fc-list :lang=ko 2>/dev/null | grep -q .; then
    missing+=(fonts-wqy-zenhei)
fi
command -v caddy >/dev/null || missing+=(caddy)
compgen -G "$root/usr/lib/postgresql/*/bin/initdb" >/dev/null || missing+=(postgresql)

if [ ${#missing[@]} -eq 0 ]; then
    exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
    echo "missing system packages: ${missing[*]}; run as root: apt-get install ${missing[*]}" >&2
    exit 1
fi
echo "installing ${missing[*]}..." >&2
lock=(-o DPkg::Lock::Timeout=600)
apt-get "${lock[@]}" update -qq >&2
DEBIAN_FRONTEND=noninteractive apt-get "${lock[@]}" install -y -qq "${missing[@]}" >/dev/null
