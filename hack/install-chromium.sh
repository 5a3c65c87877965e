#!/usr/bin/env bash
# Makes sure a headless-capable Chromium is installed for the browser tests
# (test/browser, make browser): nothing to do when one is on PATH (or
# SCHEDCACHE_CHROMIUM names one); otherwise Debian's or Ubuntu's package,
# installed with apt-get when running as root (or with sudo that needs no
# password), else a message saying how.
# Prints the browser's path and version.
set -euo pipefail

find_chromium() {
	if [[ -n "${SCHEDCACHE_CHROMIUM:-}" ]]; then
		echo "$SCHEDCACHE_CHROMIUM"
		return
	fi
	local name
	for name in chromium chromium-browser google-chrome google-chrome-stable; do
		if command -v "$name" >/dev/null 2>&1; then
			command -v "$name"
			return
		fi
	done
	return 1
}

if ! path="$(find_chromium)"; then
	# As root, or through sudo when it needs no password (CI runners).
	as_root=()
	if [[ "$(id -u)" != 0 ]] && sudo -n true 2>/dev/null; then
		as_root=(sudo -n)
	fi
	if [[ "$(id -u)" != 0 && ${#as_root[@]} == 0 ]] || ! command -v apt-get >/dev/null 2>&1; then
		echo "install-chromium: no Chromium found; install Debian's chromium package (apt-get install chromium)," >&2
		echo "install-chromium: or set SCHEDCACHE_CHROMIUM to a Chrome or Chromium binary" >&2
		exit 1
	fi
	echo "install-chromium: installing Debian's chromium package (apt-get)"
	"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq
	"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
	path="$(find_chromium)"
fi
echo "install-chromium: $path ($("$path" --version 2>/dev/null | head -n 1))"
