#!/usr/bin/env bash
# Cuts a release of the SDK's own package (issue #45): SDK/ with the sources it links copied in
# (no links left), as a git repository of its own tagged VERSION, ready to push to the SDK's
# release repository. Apps then depend on it with
#     .package(url: "<that repository>", from: "VERSION")
# and name its products with `package: "<that repository's name>"` (a package's identity is the
# last part of its URL). The tag scheme is plain semantic versions (1.4.0), as SwiftPM expects;
# the same version is tagged `sdk-VERSION` in this repository by whoever cuts it.
#
#     SDK/cut-release.sh 1.4.0 /tmp/sesame-sdk
set -euo pipefail
version=${1:-}
out=${2:-}
if [[ -z "$version" || -z "$out" ]]; then
    echo "usage: SDK/cut-release.sh VERSION OUTPUT_DIRECTORY (e.g. 1.4.0 /tmp/sesame-sdk)" >&2
    exit 64
fi
if ! [[ "$version" =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]]; then
    echo "VERSION must be a semantic version X.Y.Z (SwiftPM resolves only those), not '$version'" >&2
    exit 64
fi
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
if [ -n "$(ls -A "$out")" ]; then
    echo "$out is not empty; give a new directory" >&2
    exit 1
fi
cp "$here/Package.swift" "$out/"
# -L: copy what the links point at (the root's Sources/, DocSnippets/SDK and Examples/).
cp -RL "$here/Sources" "$here/DocSnippets" "$here/Examples" "$out/"
printf '.build/\nPackage.resolved\n.swiftpm/\n' > "$out/.gitignore"
git -C "$out" init -q
git -C "$out" add -A
git -C "$out" -c user.name="Sesame release" -c user.email="release@sesame.invalid" commit -q -m "Sesame SDK $version"
git -C "$out" tag "$version"
echo "Cut the SDK $version in $out: push it to the SDK's release repository with its tag."
