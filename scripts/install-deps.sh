#!/bin/sh
# Install the Debian packages ppr needs, only when something is missing.
set -e
need=""
[ -f /usr/include/uthash.h ] || need="$need uthash-dev"
[ -f /usr/include/cjson/cJSON.h ] || need="$need libcjson-dev"
[ -f /usr/include/perfmon/pfmlib.h ] || need="$need libpfm4-dev"
[ -f /usr/include/zlib.h ] || need="$need zlib1g-dev"
command -v cc >/dev/null 2>&1 || need="$need gcc"
command -v make >/dev/null 2>&1 || need="$need make"
command -v parallel >/dev/null 2>&1 || need="$need parallel"
[ -z "$need" ] && exit 0
echo "ppr: installing missing packages:$need" >&2
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
$SUDO apt-get update -qq
# shellcheck disable=SC2086
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $need >&2
