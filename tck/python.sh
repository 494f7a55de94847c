#!/bin/sh
# python.sh: the interpreter for the official A2A TCK's gRPC run
# (TCK_PYTHON for ../shared/tck/run.sh; docs/tck.md, "The gRPC run").
#
#   TCK_PYTHON="$PWD/tck/python.sh" TCK10_TRANSPORT=grpc ../shared/tck/run.sh --out DIR
#
# run.sh calls its interpreter from inside the TCK's work tree, so give it
# this script's absolute path. It runs Debian's /usr/bin/python3 (where
# run.sh's apt packages live; TCK_PYTHON_BASE overrides it) with
# tck/pyshim first on PYTHONPATH. tck/pyshim/sitecustomize.py lets
# grpcio 1.51 (bookworm's python3-grpcio) accept the `_registered_method`
# keyword that the TCK's generated gRPC stub passes (grpcio >= 1.62 API),
# and changes nothing else; every argument goes to the interpreter as is.
# Nothing is written: no bytecode next to the shim.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
PYTHONPATH="$here/pyshim${PYTHONPATH:+:$PYTHONPATH}"
PYTHONDONTWRITEBYTECODE=1
export PYTHONPATH PYTHONDONTWRITEBYTECODE
exec "${TCK_PYTHON_BASE:-/usr/bin/python3}" "$@"
