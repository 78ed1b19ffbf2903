#!/bin/sh
# Installs a downloaded zot release after checking its SHA-256 checksum.
#
#   sh install.sh [DIR]        DIR holds the release files (zot-<os>-<arch> and SHA256SUMS);
#                              default: the directory this script is in.
#   PREFIX=/usr/local sh install.sh DIR    installs to $PREFIX/bin (default ~/.local/bin).
#
# Rule: nothing is installed unless the binary's checksum matches the line in SHA256SUMS.
set -eu

dir=${1:-$(dirname "$0")}
prefix=${PREFIX:-"$HOME/.local"}

case "$(uname -s)" in
  Linux) os=linux ;;
  Darwin) os=darwin ;;
  MINGW* | MSYS* | CYGWIN*) os=windows ;;
  *) echo "zot install: unsupported system $(uname -s)" >&2; exit 1 ;;
esac
case "$(uname -m)" in
  x86_64 | amd64) arch=x64 ;;
  arm64 | aarch64) arch=arm64 ;;
  *) echo "zot install: unsupported CPU $(uname -m)" >&2; exit 1 ;;
esac
name="zot-$os-$arch"
[ "$os" = windows ] && name="$name.exe"

[ -f "$dir/$name" ] || { echo "zot install: $dir/$name not found (download it next to SHA256SUMS)" >&2; exit 1; }
[ -f "$dir/SHA256SUMS" ] || { echo "zot install: $dir/SHA256SUMS not found" >&2; exit 1; }

expected=$(awk -v n="$name" '$2 == n { print $1 }' "$dir/SHA256SUMS")
[ -n "$expected" ] || { echo "zot install: SHA256SUMS has no line for $name" >&2; exit 1; }
if command -v sha256sum >/dev/null 2>&1; then
  actual=$(sha256sum "$dir/$name" | awk '{ print $1 }')
else
  actual=$(shasum -a 256 "$dir/$name" | awk '{ print $1 }')
fi
if [ "$actual" != "$expected" ]; then
  echo "zot install: checksum mismatch for $name (expected $expected, got $actual); not installed" >&2
  exit 1
fi

mkdir -p "$prefix/bin"
target="$prefix/bin/zot"
[ "$os" = windows ] && target="$target.exe"
cp "$dir/$name" "$target.tmp.$$"
chmod 755 "$target.tmp.$$"
mv "$target.tmp.$$" "$target"
echo "installed $target ($("$target" --version))"
case ":$PATH:" in
  *":$prefix/bin:"*) ;;
  *) echo "add $prefix/bin to your PATH to run zot" ;;
esac
