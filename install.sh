#!/bin/sh
# install.sh: install a riskgate release, verified against its checksums.txt.
#
#   curl -fsSL https://raw.githubusercontent.com/riskgate/riskgate/main/install.sh | sh -s -- [-b DIR] [VERSION]
#   sh install.sh [-b DIR] [VERSION]
#
# VERSION is a release tag such as v1.2.3; without it, the latest release.
# It downloads riskgate_<version>_<os>_<arch>.tar.gz (.zip on windows) for
# this machine and the release's checksums.txt, checks the archive's SHA-256
# against it, and installs the riskgate binary in DIR. On any error — a
# download that fails, an archive that checksums.txt does not list or whose
# SHA-256 differs, a binary that does not run — it exits non-zero and
# installs nothing.
#
#   -b DIR                  install directory (default $RISKGATE_INSTALL_DIR,
#                           else $HOME/.local/bin)
#   RISKGATE_RELEASES_URL   where the releases are (default
#                           https://github.com/riskgate/riskgate/releases): files
#                           come from URL/download/TAG/FILE, the latest tag
#                           from the redirect of URL/latest. Set it for a
#                           mirror.
#
# POSIX sh; needs curl or wget, tar (unzip on windows), and sha256sum,
# shasum or openssl.
set -eu

releases_url="${RISKGATE_RELEASES_URL:-https://github.com/riskgate/riskgate/releases}"
releases_url="${releases_url%/}"
install_dir="${RISKGATE_INSTALL_DIR:-${HOME:-}/.local/bin}"

die() {
	echo "install.sh: $*" >&2
	exit 1
}

log() {
	echo "install.sh: $*" >&2
}

usage() {
	sed -n '2,/^set -eu/p' "$0" 2>/dev/null | sed -e '/^set -eu/d' -e 's/^# \{0,1\}//' >&2 || true
}

while [ $# -gt 0 ]; do
	case "$1" in
	-b)
		[ $# -ge 2 ] || die "-b needs a directory"
		install_dir="$2"
		shift 2
		;;
	-h | --help)
		usage
		exit 0
		;;
	-*)
		die "unknown option $1 (usage: install.sh [-b DIR] [VERSION])"
		;;
	*)
		[ -z "${tag:-}" ] || die "one version only, got $tag and $1"
		tag="$1"
		shift
		;;
	esac
done
tag="${tag:-}"
[ -n "$install_dir" ] || die "no install directory: pass -b DIR or set RISKGATE_INSTALL_DIR"

# download URL FILE: fetch URL into FILE, failing on an HTTP error.
download() {
	if command -v curl >/dev/null 2>&1; then
		curl -fsSL --retry 3 -o "$2" "$1" || die "could not download $1"
	elif command -v wget >/dev/null 2>&1; then
		wget -q -O "$2" "$1" || die "could not download $1"
	else
		die "needs curl or wget"
	fi
}

# latest_tag: the tag GitHub redirects URL/latest to (…/releases/tag/vX.Y.Z).
latest_tag() {
	if command -v curl >/dev/null 2>&1; then
		effective=$(curl -fsSL --retry 3 -o /dev/null -w '%{url_effective}' "$releases_url/latest") ||
			die "could not find the latest release at $releases_url/latest"
	else
		effective=$(wget -q -O /dev/null --max-redirect=0 -S "$releases_url/latest" 2>&1 |
			sed -n 's/^ *[Ll]ocation: *//p' | tr -d '\r' | tail -n 1)
	fi
	echo "${effective##*/}"
}

sha256() {
	if command -v sha256sum >/dev/null 2>&1; then
		sha256sum "$1" | cut -d ' ' -f 1
	elif command -v shasum >/dev/null 2>&1; then
		shasum -a 256 "$1" | cut -d ' ' -f 1
	elif command -v openssl >/dev/null 2>&1; then
		openssl dgst -sha256 -r "$1" | cut -d ' ' -f 1
	else
		die "needs sha256sum, shasum or openssl to verify the download"
	fi
}

case "$(uname -s)" in
Linux) os=linux ;;
Darwin) os=darwin ;;
MINGW* | MSYS* | CYGWIN* | Windows_NT) os=windows ;;
*) die "no riskgate release for $(uname -s); build it with: go install github.com/riskgate/riskgate/cmd/riskgate@latest" ;;
esac
case "$(uname -m)" in
x86_64 | amd64) arch=amd64 ;;
aarch64 | arm64) arch=arm64 ;;
*) die "no riskgate release for $(uname -m); build it with: go install github.com/riskgate/riskgate/cmd/riskgate@latest" ;;
esac

if [ -z "$tag" ] || [ "$tag" = latest ]; then
	tag=$(latest_tag)
fi
# A release tag, nothing else: it becomes part of a URL and of file names.
if ! printf '%s\n' "$tag" | grep -Eq '^v[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$'; then
	die "\"$tag\" is not a release version (vMAJOR.MINOR.PATCH, e.g. v1.2.3)"
fi
version="${tag#v}"

binary=riskgate
format=tar.gz
if [ "$os" = windows ]; then
	binary=riskgate.exe
	format=zip
fi
archive="riskgate_${version}_${os}_${arch}.${format}"

tmp=$(mktemp -d 2>/dev/null || mktemp -d -t riskgate)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM

log "downloading $archive ($tag) from $releases_url"
download "$releases_url/download/$tag/checksums.txt" "$tmp/checksums.txt"
download "$releases_url/download/$tag/$archive" "$tmp/$archive"

# checksums.txt lines are "SHA256  FILE" (sha256sum's format; "*FILE" in
# binary mode). The archive must be listed exactly once.
expected=$(awk -v f="$archive" '$2 == f || $2 == "*" f { print $1 }' "$tmp/checksums.txt")
if [ -z "$expected" ] || [ "$(printf '%s\n' "$expected" | wc -l)" -ne 1 ] ||
	! printf '%s\n' "$expected" | grep -Eq '^[0-9A-Fa-f]{64}$'; then
	die "checksums.txt of $tag has no single SHA-256 for $archive; nothing installed"
fi
expected=$(printf '%s' "$expected" | tr 'A-F' 'a-f')
actual=$(sha256 "$tmp/$archive" | tr 'A-F' 'a-f')
if [ "$actual" != "$expected" ]; then
	die "checksum mismatch for $archive: checksums.txt says $expected, the download is $actual; nothing installed"
fi

mkdir "$tmp/x"
if [ "$format" = zip ]; then
	if command -v unzip >/dev/null 2>&1; then
		unzip -q "$tmp/$archive" "$binary" -d "$tmp/x" || die "could not unpack $archive"
	else
		tar -xf "$tmp/$archive" -C "$tmp/x" "$binary" || die "could not unpack $archive (needs unzip)"
	fi
else
	tar -xzf "$tmp/$archive" -C "$tmp/x" "$binary" || die "could not unpack $archive"
fi
[ -f "$tmp/x/$binary" ] || die "$archive holds no $binary"
chmod 755 "$tmp/x/$binary"
"$tmp/x/$binary" --version >/dev/null 2>&1 || die "the $binary in $archive does not run on this machine; nothing installed"

# Copy beside the target, then rename: an existing riskgate is replaced
# whole or not at all.
mkdir -p "$install_dir" || die "could not create $install_dir"
cp "$tmp/x/$binary" "$install_dir/.$binary.$$" || die "could not write to $install_dir"
mv -f "$install_dir/.$binary.$$" "$install_dir/$binary" || {
	rm -f "$install_dir/.$binary.$$"
	die "could not install $install_dir/$binary"
}
log "installed $("$install_dir/$binary" --version) as $install_dir/$binary"
case ":${PATH:-}:" in
*":$install_dir:"*) ;;
*) log "$install_dir is not on your PATH" ;;
esac
