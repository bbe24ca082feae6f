#!/usr/bin/env bash
# Builds the Python wheel (make wheel): build/dist/rowbridge-VERSION-py3-none-PLATFORM.whl, the
# package python/rowbridge with the jars of every Spark line java/pom.xml builds, packaged by
# Maven before (make java, make java-lines), and rowbridge/jars/lines.json naming them.
#
#   scripts/build_wheel.sh
#
# scripts/stage_wheel.py stages the sources in build/wheel-stage (python/rowbridge itself never
# holds a jar); setuptools builds them there (python -m build --wheel --no-isolation) in
# build/venv-wheel, made from scripts/wheel-requirements.txt and again whenever that file
# changes; `wheel tags` retags the pure-Python wheel with PLATFORM, the platforms of the natives
# in rowbridge-core's jars, manylinux_2_28_x86_64.manylinux_2_28_aarch64. build/dist then holds
# that wheel alone of rowbridge's, checked against the staged files.
set -euo pipefail

cd "$(dirname "$0")/.."
venv=build/venv-wheel
stage=build/wheel-stage
dist=build/dist
platform=manylinux_2_28_x86_64.manylinux_2_28_aarch64
requirements=scripts/wheel-requirements.txt

scripts/requirements_venv.sh "$venv" "$requirements"
python="$PWD/$venv/bin/python3"
# No wheel of an earlier build outlives a failed one.
rm -f "$dist"/rowbridge-*.whl

version=$("$python" scripts/stage_wheel.py version)
"$python" scripts/stage_wheel.py stage "$stage"
# setuptools' own output (build/, *.egg-info) stays in the stage; the wheel goes to its dist/.
"$python" -m build --wheel --no-isolation --outdir "$stage/dist" "$stage" >"$stage/build.log" 2>&1 ||
  { cat "$stage/build.log" >&2; echo "build_wheel: python -m build failed" >&2; exit 1; }
built="$stage/dist/rowbridge-$version-py3-none-any.whl"
[[ -f "$built" ]] || { echo "build_wheel: python -m build made no $built" >&2; exit 1; }
# `wheel tags` writes both tags into the WHEEL file and names the wheel with them sorted; the
# name's compressed tag set has no order, and PLATFORM's puts x86_64 first.
retagged=$("$venv/bin/wheel" tags --remove --platform-tag "$platform" "$built")
wheel="$stage/dist/rowbridge-$version-py3-none-$platform.whl"
[[ -f "$stage/dist/$retagged" && ! -f "$built" ]] ||
  { echo "build_wheel: wheel tags made no wheel of $built" >&2; exit 1; }
[[ "$stage/dist/$retagged" == "$wheel" ]] || mv "$stage/dist/$retagged" "$wheel"

# The listing names the package, lines.json and every line's jars, and no other jar.
listing=$("$python" -m zipfile -l "$wheel" | awk 'NR > 1 { print $1 }')
for entry in rowbridge/__init__.py rowbridge/jars/lines.json \
  $(cd "$stage" && find rowbridge/jars -name '*.jar'); do
  grep -qxF "$entry" <<<"$listing" || { echo "build_wheel: $wheel lacks $entry" >&2; exit 1; }
done
if grep -E -e '-tests\.jar$' -e 'rowbridge-comet' <<<"$listing"; then
  echo "build_wheel: $wheel holds a tests or Comet jar" >&2
  exit 1
fi
"$python" scripts/stage_wheel.py check "$wheel" "$stage"

mkdir -p "$dist"
mv "$wheel" "$dist/"
echo "build_wheel: $dist/$(basename "$wheel")"
grep -E '^rowbridge/jars/' <<<"$listing" | sed 's/^/  /'
