#!/usr/bin/env bash
# Makes the virtual environment VENV hold exactly the pins of REQUIREMENTS: made again (from
# python3 -m venv) whenever that file differs from the copy the environment was made from.
#
#   scripts/requirements_venv.sh VENV REQUIREMENTS
set -euo pipefail

venv=${1:?usage: scripts/requirements_venv.sh VENV REQUIREMENTS}
requirements=${2:?usage: scripts/requirements_venv.sh VENV REQUIREMENTS}
if [[ ! -f "$venv/pyvenv.cfg" ]] || ! cmp -s "$venv/.requirements" "$requirements"; then
  echo "requirements_venv: installing $requirements into $venv"
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/python3" -m pip install -q --disable-pip-version-check -r "$requirements"
  cp "$requirements" "$venv/.requirements"
fi
