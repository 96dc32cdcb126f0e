#!/bin/sh
# Hostile workload scripts through the gpuperf binary: what the sandbox
# leaves out, the instruction budget and the memory cap (on every command
# that runs scripts), string, table and metatable blowups, error objects,
# require tricks. Each refused case: exit status 1, the exact first line of
# the message, and that line documented in docs/robustness.md. Every run has
# a time limit: a hang fails the test.
#   GP_ROBUST_TABLE=FILE  also append each case as a row of the docs table
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/robust_lib.sh"

S=tests/data/robust/scripts
O=tests/data/scripts

P="gpuperf predict"

# ---------------------------------------------------------------- the sandbox
case_ "sandbox: os.execute"
rm -f /tmp/gpuperf_sandbox_escape
refused "$P: $O/sb_os_execute.lua:2: attempt to index global 'os' (a nil value)" \
    predict --device h200-sxm $O/sb_os_execute.lua
if [ -e /tmp/gpuperf_sandbox_escape ]; then bad "the script ran a command"; else ok; fi
case_ "sandbox: io.open"
refused "$P: $O/sb_io_open.lua:2: attempt to index global 'io' (a nil value)" \
    predict --device h200-sxm $O/sb_io_open.lua
case_ "sandbox: debug.sethook"
refused "$P: $S/rb_debug.lua:2: attempt to index global 'debug' (a nil value)" \
    predict --device h200-sxm $S/rb_debug.lua
case_ "sandbox: package.loadlib"
refused "$P: $S/rb_package.lua:2: attempt to index global 'package' (a nil value)" \
    predict --device h200-sxm $S/rb_package.lua
case_ "sandbox: require(\"ffi\")"
refused "$P: $S/rb_ffi.lua:2: require 'ffi': there is no ffi.lua in the script's folder" \
    predict --device h200-sxm $S/rb_ffi.lua
case_ "sandbox: loadstring"
refused "$P: $O/sb_loadstring.lua:2: attempt to call global 'loadstring' (a nil value)" \
    predict --device h200-sxm $O/sb_loadstring.lua
case_ "sandbox: load of bytecode"
refused "$P: $O/sb_bytecode_load.lua:2: attempt to call global 'load' (a nil value)" \
    predict --device h200-sxm $O/sb_bytecode_load.lua
case_ "sandbox: string.dump"
refused "$P: $O/sb_string_dump.lua:2: attempt to call field 'dump' (a nil value)" \
    predict --device h200-sxm $O/sb_string_dump.lua
case_ "sandbox: dofile(\"/etc/passwd\")"
refused "$P: $S/rb_dofile.lua:2: attempt to call global 'dofile' (a nil value)" \
    predict --device h200-sxm $S/rb_dofile.lua
case_ "sandbox: loadfile"
refused "$P: $S/rb_loadfile.lua:2: attempt to call global 'loadfile' (a nil value)" \
    predict --device h200-sxm $S/rb_loadfile.lua
case_ "sandbox: getfenv of a host function"
refused "$P: $S/rb_getfenv.lua:2: attempt to call global 'getfenv' (a nil value)" \
    predict --device h200-sxm $S/rb_getfenv.lua
case_ "sandbox: coroutine.create"
refused "$P: $S/rb_coroutine.lua:2: attempt to index global 'coroutine' (a nil value)" \
    predict --device h200-sxm $S/rb_coroutine.lua
case_ "sandbox: the string metatable"
refused "$P: $S/rb_string_metatable.lua:3: attempt to index local 'mt' (a boolean value)" \
    predict --device h200-sxm $S/rb_string_metatable.lua
case_ "sandbox: an op's state overwritten through the base next"
refused "$P: $S/rb_op_state.lua:8: launch 'k': work[1]: 'op' must be the name of a gpuperf operation, got nil" \
    predict --device h200-sxm $S/rb_op_state.lua
case_ "sandbox: collectgarbage(\"collect\") and __gc"
refused "$P: $S/rb_gc_metamethod.lua:4: collectgarbage: only collectgarbage(\"count\") is available to workload scripts" \
    predict --device h200-sxm $S/rb_gc_metamethod.lua
case_ "sandbox: a __gc that loops is never called"
gpt predict --device h200-sxm $S/rb_gc_ignored.lua
expect_status 0
case_ "sandbox: writing the gpuperf table"
refused "$P: $O/sb_gpuperf_write.lua:2: gpuperf is read-only (tried to set \"launch\")" \
    predict --device h200-sxm $O/sb_gpuperf_write.lua
case_ "sandbox: rawset on the gpuperf table"
refused "$P: $O/sb_rawset.lua:2: rawset: this gpuperf table is read-only" \
    predict --device h200-sxm $O/sb_rawset.lua
case_ "sandbox: the everything-absent check"
gpt predict --device h200-sxm $O/sb_absent.lua
expect_status 1 # it checks and launches nothing: the only error is that
expect_err "sb_absent.lua: the script launches no kernel and copies nothing"

# ------------------------------------------------------------------- require
case_ "require: a path"
refused "$P: $O/sb_require_dotdot.lua:2: require \"../x\": a module name is a plain name of letters, digits, '_', '-' and '.' (not starting with '.', no \"..\"); NAME.lua is loaded from the script's folder" \
    predict --device h200-sxm $O/sb_require_dotdot.lua
case_ "require: a cycle"
refused "$P: $O/circ_b.lua:1: require 'circ_a': circular require (the module is still loading)" \
    predict --device h200-sxm $O/sb_require_circular.lua
case_ "require: precompiled bytecode"
refused "$P: $S/rb_require_bytecode.lua:2: require 'bytecode': bytecode.lua is precompiled bytecode; only Lua source is loaded" \
    predict --device h200-sxm $S/rb_require_bytecode.lua
case_ "require: a symbolic link out of the folder"
mkdir -p "$TMP/s"
cp $S/rb_require_escape.lua "$TMP/s/"
ln -s /etc/passwd "$TMP/s/link.lua"
refused "$P: s/rb_require_escape.lua:3: require 'link': link.lua leads outside the script's folder" \
    predict --device h200-sxm "$TMP/s/rb_require_escape.lua"
case_ "require: a symbolic link within the folder"
printf 'return 42\n' >"$TMP/s/real.lua"
ln -s real.lua "$TMP/s/alias.lua"
printf 'local m = require("alias")\ngpuperf.buffer("b", m)\n' >"$TMP/s/ok.lua"
gpt predict --device h200-sxm "$TMP/s/ok.lua"
expect_status 1 # loads the module and launches nothing: the only error is that
expect_err "ok.lua: the script launches no kernel and copies nothing"
case_ "require: a FIFO"
mkfifo "$TMP/s/fifo.lua"
printf 'local m = require("fifo")\n' >"$TMP/s/fifo_main.lua"
refused "$P: s/fifo_main.lua:1: require 'fifo': fifo.lua is not a regular file" \
    predict --device h200-sxm "$TMP/s/fifo_main.lua"

# -------------------------------------------------------------- script files
case_ "script file: a directory"
refused "$P: tests/data/robust/scripts: is a directory, not a file" \
    predict --device h200-sxm tests/data/robust/scripts
case_ "script file: a FIFO"
mkfifo "$TMP/pipe.lua"
gpt predict --device h200-sxm "$TMP/pipe.lua"
expect_status 1
expect_err "pipe.lua: not a regular file (a FIFO, socket or device?)"
case_ "script file: /dev/zero"
refused "$P: /dev/zero: not a regular file (a FIFO, socket or device?)" \
    predict --device h200-sxm /dev/zero
case_ "script file: precompiled bytecode"
refused "$P: tests/data/robust/scripts/bytecode.lua: precompiled Lua bytecode is not accepted; give the script's source text" \
    predict --device h200-sxm $S/bytecode.lua
case_ "script file: nesting beyond the parser"
refused "$P: $S/rb_deep_syntax.lua:2: chunk has too many syntax levels" \
    predict --device h200-sxm $S/rb_deep_syntax.lua

# ---------------------------------------------------- budget and memory cap
case_ "budget: an endless loop"
refused "$P: $O/sb_infinite_loop.lua:3: instruction budget of 200000000 exceeded (runaway loop?)" \
    predict --device h200-sxm $O/sb_infinite_loop.lua
case_ "budget: pcall around an endless loop"
refused "$P: $O/sb_pcall_budget.lua:3: instruction budget of 200000000 exceeded (runaway loop?)" \
    predict --device h200-sxm $O/sb_pcall_budget.lua
case_ "budget: an xpcall handler that loops"
refused "$P: $O/sb_xpcall_budget.lua:2: instruction budget of 200000000 exceeded (runaway loop?)" \
    predict --device h200-sxm $O/sb_xpcall_budget.lua
case_ "budget: --budget 100000 on predict"
refused "$P: $O/sb_infinite_loop.lua:3: instruction budget of 100000 exceeded (runaway loop?)" \
    predict --device h200-sxm --budget 100000 $O/sb_infinite_loop.lua
case_ "budget: --budget 2^17 on compare"
refused "gpuperf compare: $O/sb_infinite_loop.lua:3: instruction budget of 131072 exceeded (runaway loop?)" \
    compare --devices h200-sxm,tesla-c1060 --budget '2^17' $O/sb_infinite_loop.lua
case_ "budget: --budget 100000 on validate"
printf 'device,family,name,params,script,script_params,measured_us\nh200-sxm,f,loop,-,%s/%s/sb_infinite_loop.lua,,10\n' \
    "$GP_SOURCE_DIR" "$O" >"$TMP/table.csv"
gpt validate --budget 100000 "$TMP/table.csv"
expect_status 1
expect_err "table.csv:2: $GP_SOURCE_DIR/$O/sb_infinite_loop.lua:3: instruction budget of 100000 exceeded (runaway loop?)"
case_ "budget: --budget 100000 on sweep"
gpt sweep --devices h200-sxm --budget 100000 $O/sb_infinite_loop.lua
expect_status 1
expect_err "sb_infinite_loop.lua:3: instruction budget of 100000 exceeded (runaway loop?)"
case_ "budget: a bad --budget"
gpt predict --device h200-sxm --budget -5 scripts/saxpy.lua
expect_status 2
expect_err "gpuperf predict: --budget -5: expected a whole number >= 0"
gpt predict --device h200-sxm --budget 1e30 scripts/saxpy.lua
expect_status 2
gpt validate --budget abc "$TMP/table.csv"
expect_status 2
expect_err "gpuperf validate: --budget: 'abc': not a number"
case_ "memory: a table that grows without end"
refused "$P: $O/sb_memory_hog.lua: memory cap of 256 MiB exceeded" \
    predict --device h200-sxm $O/sb_memory_hog.lua
case_ "memory: --memory-cap 8 on predict"
refused "$P: $O/sb_memory_hog.lua: memory cap of 8 MiB exceeded" \
    predict --device h200-sxm --memory-cap 8 $O/sb_memory_hog.lua
case_ "memory: --memory-cap 8 on compare"
refused "gpuperf compare: $O/sb_memory_hog.lua: memory cap of 8 MiB exceeded" \
    compare --devices h200-sxm,a100-sxm4-40gb --memory-cap 8 $O/sb_memory_hog.lua
case_ "memory: --memory-cap 8 on validate"
printf 'device,family,name,params,script,script_params,measured_us\nh200-sxm,f,hog,-,%s/%s/sb_memory_hog.lua,,10\n' \
    "$GP_SOURCE_DIR" "$O" >"$TMP/hog.csv"
gpt validate --memory-cap 8 "$TMP/hog.csv"
expect_status 1
expect_err "hog.csv:2: $GP_SOURCE_DIR/$O/sb_memory_hog.lua: memory cap of 8 MiB exceeded"
case_ "memory: --memory-cap 8 on sweep"
gpt sweep --devices h200-sxm --memory-cap 8 $O/sb_memory_hog.lua
expect_status 1
expect_err "sb_memory_hog.lua: memory cap of 8 MiB exceeded"
case_ "memory: a bad --memory-cap"
for v in 0 2097152 x; do
    gpt predict --device h200-sxm --memory-cap $v scripts/saxpy.lua
    expect_status 2
    gpt validate --memory-cap $v "$TMP/hog.csv"
    expect_status 2
done
case_ "memory: pcall around the memory cap"
refused "$P: $S/rb_pcall_memory.lua: memory cap of 256 MiB exceeded" \
    predict --device h200-sxm $S/rb_pcall_memory.lua

# ---------------------------------------------------------------- recursion
case_ "recursion: a function calling itself"
refused "$P: $O/sb_deep_recursion.lua:3: stack overflow: calls nested more than 1000 deep (runaway recursion?)" \
    predict --device h200-sxm $O/sb_deep_recursion.lua
case_ "recursion: through string.gsub (C)"
refused "$P: $O/sb_c_recursion.lua:3: stack overflow: more than 64 nested calls through pcall, require, print, table.sort, string.gsub or string.format" \
    predict --device h200-sxm $O/sb_c_recursion.lua
case_ "recursion: table.sort inside its comparator"
refused "$P: $S/rb_sort_reentrant.lua:3: stack overflow: more than 64 nested calls through pcall, require, print, table.sort, string.gsub or string.format" \
    predict --device h200-sxm $S/rb_sort_reentrant.lua
case_ "recursion: an __index that indexes itself"
refused "$P: $S/rb_index_recursion.lua:3: stack overflow: calls nested more than 1000 deep (runaway recursion?)" \
    predict --device h200-sxm $S/rb_index_recursion.lua
case_ "recursion: a __concat that concatenates itself"
refused "$P: $S/rb_concat_metamethod.lua:3: stack overflow: calls nested more than 1000 deep (runaway recursion?)" \
    predict --device h200-sxm $S/rb_concat_metamethod.lua
case_ "recursion: a __tostring calling tostring on itself"
refused "$P: $S/rb_tostring_recursion.lua:3: instruction budget of 200000000 exceeded (runaway loop?)" \
    predict --device h200-sxm $S/rb_tostring_recursion.lua

# ------------------------------------------------------- strings and tables
case_ "strings: string.rep of a terabyte"
refused "$P: $O/sb_string_rep.lua:2: string.rep: the result would take 1099511627776 bytes, more than the memory cap of 256 MiB leaves" \
    predict --device h200-sxm $O/sb_string_rep.lua
case_ "strings: string.rep of an empty string with a separator"
refused "$P: $S/rb_rep_separator.lua:2: string.rep: the result would take 1099511626752 bytes, more than the memory cap of 256 MiB leaves" \
    predict --device h200-sxm $S/rb_rep_separator.lua
case_ "strings: string.rep(\"\", 2^31-1) in a loop"
refused "$P: $S/rb_rep_empty.lua:2: instruction budget of 200000000 exceeded (runaway loop?)" \
    predict --device h200-sxm $S/rb_rep_empty.lua
case_ "strings: doubling with .."
refused "$P: $S/rb_concat_blowup.lua: memory cap of 256 MiB exceeded" \
    predict --device h200-sxm $S/rb_concat_blowup.lua
case_ "strings: doubling with string.format"
refused "$P: $S/rb_format_blowup.lua: memory cap of 256 MiB exceeded" \
    predict --device h200-sxm $S/rb_format_blowup.lua
case_ "strings: doubling with string.gsub"
refused "$P: $S/rb_gsub_blowup.lua:3: instruction budget of 200000000 exceeded (runaway loop?)" \
    predict --device h200-sxm $S/rb_gsub_blowup.lua
case_ "strings: catastrophic backtracking"
refused "$P: $O/sb_pattern.lua:3: string.find: pattern too costly on a 100000-byte string (worst case about 8e+20 steps, the limit is 1e+09); use a shorter string or a simpler pattern" \
    predict --device h200-sxm $O/sb_pattern.lua
case_ "strings: a back-reference"
refused "$P: $S/rb_backreference.lua:3: string.match: pattern too costly on a 9000-byte string (worst case about 5.83e+12 steps, the limit is 1e+09); use a shorter string or a simpler pattern" \
    predict --device h200-sxm $S/rb_backreference.lua
case_ "strings: costly patterns in a loop"
refused "$P: $S/rb_pattern_loop.lua:4: instruction budget of 200000000 exceeded (runaway loop?)" \
    predict --device h200-sxm $S/rb_pattern_loop.lua
case_ "strings: plain string.find in a loop"
refused "$P: $S/rb_plain_find_loop.lua:4: instruction budget of 200000000 exceeded (runaway loop?)" \
    predict --device h200-sxm $S/rb_plain_find_loop.lua
case_ "strings: string.byte of a megabyte"
refused "$P: $S/rb_byte_huge.lua:3: string slice too long" \
    predict --device h200-sxm $S/rb_byte_huge.lua
case_ "tables: unpack of 1e8 values"
refused "$P: $S/rb_unpack_huge.lua:3: too many results to unpack" \
    predict --device h200-sxm $S/rb_unpack_huge.lua
case_ "tables: a billion slots"
refused "$P: $S/rb_table_blowup.lua: memory cap of 256 MiB exceeded" \
    predict --device h200-sxm $S/rb_table_blowup.lua
case_ "tables: table.insert at the front, a million times"
refused "$P: $O/sb_table_insert.lua:4: instruction budget of 200000000 exceeded (runaway loop?)" \
    predict --device h200-sxm $O/sb_table_insert.lua
case_ "tables: a comparator that is not an order"
refused "$P: $S/rb_sort_comparator.lua:4: invalid order function for sorting" \
    predict --device h200-sxm $S/rb_sort_comparator.lua

# ------------------------------------------------------------ error objects
case_ "errors: a table as error object"
refused "$P: $O/sb_error_table.lua:2: error object is a table value (raise errors with error(\"message\"))" \
    predict --device h200-sxm $O/sb_error_table.lua
case_ "errors: an error object whose __tostring fails"
refused "$P: $S/rb_error_tostring.lua:3: error object is a table value (raise errors with error(\"message\"))" \
    predict --device h200-sxm $S/rb_error_tostring.lua
case_ "errors: error() without a value"
refused "$P: $S/rb_error_nil.lua:2: error object is a nil value (raise errors with error(\"message\"))" \
    predict --device h200-sxm $S/rb_error_nil.lua
case_ "errors: error(msg, 0) without a position"
refused "$P: $S/rb_error_levels.lua:2: no position here" \
    predict --device h200-sxm $S/rb_error_levels.lua
case_ "errors: an xpcall handler that raises"
gpt predict --device h200-sxm $S/rb_xpcall_recursion.lua
expect_status 1 # survives the handler and launches nothing: the only error is that
expect_err "rb_xpcall_recursion.lua: the script launches no kernel and copies nothing"

# ------------------------------------------------------------ the workload
case_ "workload: loops nested 32 deep, 1e18 trips each"
refused "$P: $S/rb_nested_work.lua:4: launch 'deep': work: the loop at line 3, inside the loops around it, repeats its body 1e+36 times per thread; at most 1e+18 (check the trip counts)" \
    predict --device h200-sxm $S/rb_nested_work.lua
case_ "workload: a stride of 1e18 elements"
refused "$P: $S/rb_huge_stride.lua:4: gpuperf.load: 'stride' must be an integer from -281474976710656 to 281474976710656, got 1e+18" \
    predict --device h200-sxm $S/rb_huge_stride.lua

case_ "workload: op checks that failed inside pcall change nothing after them"
gp predict --device h200-sxm --json $S/rb_failed_check.lua -p errors=0
expect_status 0
clean=$(json .total_us)
gp predict --device h200-sxm --json $S/rb_failed_check.lua -p errors=1
expect_status 0
expect_json .total_us "$clean"

finish
