#!/bin/sh
# make demo: the main job on a built-in default.
set -e
./ppr --help
