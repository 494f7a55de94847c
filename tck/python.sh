#!/bin/sh
# python.sh: the interpreter for the official A2A TCK's gRPC run
# (TCK_PYTHON for ../shared/tck/run.sh; docs/tck.md, "The gRPC run").
#
#   TCK_PYTHON="$PWD/tck/python.sh" TCK10_TRANSPORT=grpc ../shared/tck/run.sh --out DIR
#
# run.sh calls its interpreter from inside the TCK's work tree, so give it
# this script's absolute path. It runs Debian's /usr/bin/python3 (where
# run.sh's apt packages live; TCK_PYTHON_BASE overrides it) with
# tck/pyshim first on PYTHONPATH; every argument goes to the interpreter as
# is. tck/pyshim/sitecustomize.py adapts two things of bookworm's packages
# that the TCK's generated gRPC stub trips on, and nothing else:
# grpcio 1.51 gets to accept (and drop) the `_registered_method` keyword of
# grpcio >= 1.62, and the stub's top-level `import a2a_pb2` gets the
# TCK's specification.generated.a2a_pb2 module (one class per message, as
# PyPI's upb protobuf gives; bookworm's cpp backend makes two). Nothing is
# written: no bytecode next to the shim.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
PYTHONPATH="$here/pyshim${PYTHONPATH:+:$PYTHONPATH}"
PYTHONDONTWRITEBYTECODE=1
export PYTHONPATH PYTHONDONTWRITEBYTECODE
exec "${TCK_PYTHON_BASE:-/usr/bin/python3}" "$@"
