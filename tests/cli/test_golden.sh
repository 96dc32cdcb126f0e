#!/bin/sh
# Golden reports: predict, compare and validate, as text and JSON, on a few
# small fixed inputs (tests/cli/golden/README.md: what they are and how to
# regenerate them after an intended change of the model or of a report).
. "$(dirname "$0")/lib.sh"

case_ "predict, text and JSON"
gp predict --device h200-sxm scripts/saxpy.lua -p n=2^20
expect_status 0
expect_golden predict_h200_saxpy.txt
gp predict --device h200-sxm scripts/saxpy.lua -p n=2^20 --json
expect_status 0
expect_golden predict_h200_saxpy.json

case_ "compare, text and JSON"
gp compare --devices tesla-c1060,h200-sxm scripts/saxpy.lua -p n=2^20
expect_status 0
expect_golden compare_c1060_h200_saxpy.txt
gp compare --devices tesla-c1060,h200-sxm scripts/saxpy.lua -p n=2^20 --json
expect_status 0
expect_golden compare_c1060_h200_saxpy.json

case_ "validate, a times table with every kind, text and JSON"
gp validate tests/data/validate/times.csv
expect_status 0
expect_golden validate_times.txt
gp validate tests/data/validate/times.csv --json
expect_status 0
expect_golden validate_times.json

case_ "validate, two tables: times and speedups"
gp validate tests/data/validate/times.csv tests/data/validate/speedups.csv --set fixture-times
expect_status 0
expect_golden validate_two_tables.txt

finish
