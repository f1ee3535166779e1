#!/usr/bin/env bash
# Create or update the Python venv at <repo>/.venv for the tools and tests.
#
# Installs tools/requirements.txt normally and tools/requirements-nodeps.txt
# with --no-deps. Idempotent: a stamp file records a hash of both lists (and
# the interpreter version), so a second run with nothing changed does nothing
# and prints nothing. Set PYTHON to choose the interpreter (default python3).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="$root/.venv"
reqs="$root/tools/requirements.txt"
reqs_nodeps="$root/tools/requirements-nodeps.txt"
stamp="$venv/.tools-requirements.sha256"
python="${PYTHON:-python3}"

want="$( { "$python" --version 2>&1; cat "$reqs" "$reqs_nodeps"; } | sha256sum | cut -d' ' -f1)"
if [[ -x "$venv/bin/python" && -f "$stamp" && "$(cat "$stamp")" == "$want" ]]; then
    exit 0
fi

echo "venv.sh: setting up $venv" >&2
[[ -x "$venv/bin/python" ]] || "$python" -m venv "$venv"
pip=("$venv/bin/python" -m pip --quiet --disable-pip-version-check)
"${pip[@]}" install -r "$reqs"
"${pip[@]}" install --no-deps -r "$reqs_nodeps"
echo "$want" > "$stamp"
echo "venv.sh: done" >&2
