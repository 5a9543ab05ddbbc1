#!/bin/bash
# seed.sh PPR - (re)write the seed corpora tests/fuzz/corpus/<target>/ from
# inputs written here and from the project's own files (machines/*.json,
# tests/data/asm, traces made by `ppr trace --kernel`).  Nothing is taken
# from ../shared.  Seeds are kept small (fuzzing speed): long inputs are
# cut.  Run by hand (scripts/fuzz.sh seed BUILD) and commit the result.
set -eu
PPR=$1
cd "$(dirname "$0")/../.."
C=tests/fuzz/corpus
rm -rf "$C"
mkdir -p "$C"
w() { mkdir -p "$C/$1"; cat > "$C/$1/$2"; }

# ---- Matrix Market -------------------------------------------------------
MM=fuzz_mm
w $MM coord_real_general.mtx <<'X'
%%MatrixMarket matrix coordinate real general
% a comment
3 4 5
1 1 1.5
2 3 -2e-3
3 4 7
1 4 1e300
3 1 0
X
w $MM coord_int_sym.mtx <<'X'
%%MatrixMarket matrix coordinate integer symmetric
3 3 4
1 1 2
2 1 -1
3 2 -1
3 3 2
X
w $MM coord_pattern_skew.mtx <<'X'
%%MatrixMarket matrix coordinate pattern skew-symmetric
4 4 3
2 1
3 1
4 2
X
w $MM coord_complex_herm.mtx <<'X'
%%MatrixMarket matrix coordinate complex hermitian
2 2 3
1 1 1.0 0.0
2 1 0.5 -0.5
2 2 3 0
X
w $MM coord_pattern_general.mtx <<'X'
%%MatrixMarket matrix coordinate pattern general
2 3 3
1 1
1 1
2 3
X
w $MM array_real_general.mtx <<'X'
%%MatrixMarket matrix array real general
2 3
1
0
2.5
-1
0
4
X
w $MM array_real_sym.mtx <<'X'
%%MatrixMarket matrix array real symmetric
3 3
1
2
0
4
5
6
X
w $MM array_complex.mtx <<'X'
%%MatrixMarket matrix array complex general
1 2
1 2
3 4
X
w $MM crlf_blank_lines.mtx <<'X'
%%MatrixMarket matrix coordinate real general
%
  
2 2 2
1 1 1

2 2 nan
X
printf '%%%%MatrixMarket matrix coordinate real general\r\n2 2 1\r\n2 1 -inf\r\n' > $C/$MM/crlf.mtx
printf '%%%%MatrixMarket matrix coordinate real general\n1 1 1\n1 1 1' > $C/$MM/no_final_newline.mtx
w $MM empty.mtx <<'X'
%%MatrixMarket matrix coordinate real general
0 0 0
X
# malformed: each names one check of the reader
w $MM bad_banner.mtx <<'X'
%%MatrixMarket tensor coordinate real general
1 1 1
1 1 1
X
w $MM bad_field.mtx <<'X'
%%MatrixMarket matrix coordinate quaternion general
1 1 1
1 1 1
X
w $MM bad_index.mtx <<'X'
%%MatrixMarket matrix coordinate real general
2 2 1
3 1 1
X
w $MM bad_zero_index.mtx <<'X'
%%MatrixMarket matrix coordinate real general
2 2 1
0 1 1
X
w $MM bad_too_few.mtx <<'X'
%%MatrixMarket matrix coordinate real general
2 2 3
1 1 1
X
w $MM bad_too_many.mtx <<'X'
%%MatrixMarket matrix coordinate real general
2 2 1
1 1 1
2 2 2
X
w $MM bad_value.mtx <<'X'
%%MatrixMarket matrix coordinate real general
2 2 1
1 1 x
X
w $MM bad_huge_size.mtx <<'X'
%%MatrixMarket matrix coordinate real general
4294967295 4294967295 18446744073709551615
1 1 1
X
w $MM bad_huge_rows.mtx <<'X'
%%MatrixMarket matrix coordinate real general
2000000000 1 0
X
w $MM bad_huge_array.mtx <<'X'
%%MatrixMarket matrix array real general
100000 100000
1
X
w $MM bad_negative.mtx <<'X'
%%MatrixMarket matrix coordinate real general
-1 2 1
1 1 1
X
w $MM bad_sym_upper.mtx <<'X'
%%MatrixMarket matrix coordinate real symmetric
2 2 1
1 2 1
X
w $MM bad_skew_diag.mtx <<'X'
%%MatrixMarket matrix coordinate real skew-symmetric
2 2 1
1 1 1
X
w $MM bad_sym_rect.mtx <<'X'
%%MatrixMarket matrix coordinate real symmetric
2 3 1
1 1 1
X
w $MM bad_overflow_int.mtx <<'X'
%%MatrixMarket matrix coordinate integer general
1 1 1
1 1 99999999999999999999999999
X
printf '%%%%MatrixMarket matrix coordinate real general\n1 1 1\n1 1 \0001\n' > $C/$MM/bad_nul.mtx
: > $C/$MM/bad_empty.mtx

# ---- gzip'd Matrix Market: text seeds (compressed by the target) and real
# gzip files (fed as they are), one of them cut short, one with garbage
MG=fuzz_mm_gz
mkdir -p $C/$MG
for f in coord_real_general coord_int_sym coord_complex_herm array_real_sym bad_index bad_huge_rows; do
	cp $C/$MM/$f.mtx $C/$MG/$f.mtx
done
gzip -9nc < $C/$MM/coord_real_general.mtx > $C/$MG/real.gz
gzip -9nc < $C/$MM/coord_int_sym.mtx | head -c 40 > $C/$MG/truncated.gz
{ gzip -9nc < $C/$MM/coord_pattern_skew.mtx; printf 'trailing garbage'; } > $C/$MG/trailing.gz
{ printf '%%%%MatrixMarket matrix coordinate real general\n' | gzip -nc
  printf '1 1 1\n1 1 2\n' | gzip -nc; } > $C/$MG/two_members.gz
gzip -9nc < $C/$MM/coord_real_general.mtx | sed 's/a/b/g' > $C/$MG/corrupt.gz
printf '%%%%MatrixMarket matrix coordinate real general\n2 2 1\n1 1 1\n\001' > $C/$MG/cut_request.mtx

# ---- Rutherford-Boeing ---------------------------------------------------
RB=fuzz_rb
w $RB rsa.rb <<'X'
symmetric test                                                          KEY
             4             1             1             1             1
rsa                        3             3             4             0
(4I2)           (4I2)           (3D10.3)            (3D10.3)
F                          1             0
 1 3 4 5
 1 3 2 3
-1.000D+00-2.500D+00 3.000D+00
4.000D-01
X
w $RB rua.rb <<'X'
unsymmetric                                                             RUA1
             4             1             1             2
rua                        2             3             4             0
(4I3)           (4I3)           (2E12.4)
  1  2  4  5
  2  1  2  1
  1.0000E+00 -2.0000E+00
  3.5000E+00  4.0000E-02
X
w $RB pua.rb <<'X'
pattern                                                                 PUA1
             3             1             1             0
pua                        3             3             3             0
(4I3)           (3I3)
  1  2  3  4
  1  2  3
X
w $RB rza.rb <<'X'
skew                                                                    RZA
             3             1             1             1
rza                        3             3             2             0
(4I3)           (2I3)           (2F8.3)
  1  3  3  3
  2  3
   1.500  -2.000
X
w $RB cua.rb <<'X'
complex                                                                 CUA
             3             1             1             1
cua                        2             2             2             0
(3I3)           (2I3)           (4E10.2)
  1  2  3
  1  2
  1.00E+00  2.00E+00  3.00E+00 -1.00E+00
X
w $RB iua_hb_rhs.rb <<'X'
integer with a Harwell-Boeing right-hand side line                      IUA
             5             1             1             1             1
iua                        2             2             2             0
(3I3)           (2I3)           (2I5)               (2I5)
F                          1             0
  1  2  3
  1  2
    7   -8
X
w $RB bad_type.rb <<'X'
title
 3 1 1 1
rxa 2 2 1 0
X
w $RB bad_elemental.rb <<'X'
title
 3 1 1 1
rue 2 2 1 0
X
w $RB bad_format.rb <<'X'
title
 3 1 1 1
rua 2 2 2 0
(3I3)           (3Q3)           (2E10.3)
X
w $RB bad_colptr.rb <<'X'
title
 3 1 1 1
rua 2 2 2 0
(3I3)           (3I3)           (2E10.3)
  2  2  3
X
w $RB bad_rowidx.rb <<'X'
title
 3 1 1 1
rua 2 2 2 0
(3I3)           (3I3)           (2E10.3)
  1  2  3
  1  3
X
w $RB bad_value.rb <<'X'
title
 3 1 1 1
rua 2 2 2 0
(3I3)           (3I3)           (2E10.3)
  1  2  3
  1  2
 1.0D+00    x
X
w $RB bad_huge.rb <<'X'
title
 3 1 1 1
rua 4294967295 4294967295 9223372036854775807 0
(3I3)           (3I3)           (2E10.3)
X
w $RB bad_huge_width.rb <<'X'
title
 3 1 1 1
rua 2 2 2 0
(1I2147483647)  (99999999I3)    (2E999999999.3)
X
w $RB bad_colptr_decreasing.rb <<'X'
title
 3 1 1 1
rua 2 2 2 0
(3I3)           (3I3)           (2E10.3)
  1  3  2
  1  2
X
: > $C/$RB/bad_empty.rb

# ---- machine files: the project's own, and hand-made broken ones --------
MA=fuzz_machine
mkdir -p $C/$MA
for f in machines/*.json machines/compat/*.json; do
	cp "$f" "$C/$MA/$(basename "$f")"
done
w $MA bad_trailing_comma.json <<'X'
{"name": "x", "levels": [ ], }
X
w $MA bad_types.json <<'X'
{"name": 3, "clock_ghz": "fast", "levels": {"l1": 1}}
X
w $MA bad_huge_sizes.json <<'X'
{"name": "huge", "clock_ghz": 3, "cores": 1,
 "hierarchy": {"levels": [
  {"name": "L1D", "size_bytes": 1e300, "sets": 18446744073709551616, "ways": 8, "cl_size": 64},
  {"name": "L2", "size_bytes": -1, "sets": 0, "ways": 4294967297, "cl_size": 0}]},
 "memory": {"bandwidth_gbs": 1e999}}
X
# haswell.json with one field made hostile at a time
for edit in 's/"sets": 64,/"sets": 4611686018427387904,/' \
	's/"ways": 8,/"ways": 65,/' 's/"cl_size": 64/"cl_size": 3/' \
	's/"clock_ghz": 2.7/"clock_ghz": -1/' 's/"lru"/"fifo_lru"/' \
	's/"size_bytes": 32768/"size_bytes": 32769/'; do
	n=$((${n:-0} + 1))
	sed "$edit" machines/haswell.json > $C/$MA/bad_haswell_$n.json
done
w $MA bad_deep.json <<'X'
[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]
X
printf '{"name": "nul\\u0000inside", "levels": []}' > $C/$MA/bad_nul_escape.json
: > $C/$MA/bad_empty.json

# ---- traces: made by ppr itself, plus cut and hand-made broken ones -----
for fmt in ppr din lackey; do
	T=fuzz_trace_$fmt
	mkdir -p $C/$T
	"$PPR" trace --kernel conv1d --variant naive --n 24 -t $fmt -o $C/$T/conv1d.$fmt
	"$PPR" trace --kernel fft1d --n 8 -t $fmt -o $C/$T/fft1d.$fmt
	"$PPR" trace --kernel spmv-csr gen:laplace2d:n=3 -t $fmt -o $C/$T/csr.$fmt
	"$PPR" trace --kernel spmv-bcsr --block 2x2 gen:laplace2d:n=3 -t $fmt -o $C/$T/bcsr.$fmt
	head -c 333 $C/$T/csr.$fmt > $C/$T/cut.$fmt
done
T=fuzz_trace_din
w $T extended.din <<'X'
r 7fff0000 8
w 7fff0008 4
i 400000 10
m 1000 4
c 0 0
r ffffffffffffffff 1
X
w $T bad_label.din <<'X'
0 1000
9 1000
X
w $T bad_size.din <<'X'
r 1000 0
r 1000 100000
X
w $T bad_addr.din <<'X'
0 10000000000000000000000
1 zz
X
T=fuzz_trace_lackey
w $T handmade.lackey <<'X'
==1234== Lackey, an example Valgrind tool
I  04000000,3
 L 7fff0000,8
 S 7fff0008,4
 M 00601040,16
==1234== 
X
w $T bad_op.lackey <<'X'
 X 1000,8
X
w $T bad_size.lackey <<'X'
 L 1000,0
 L 1000,99999
X
w $T bad_addr.lackey <<'X'
 L 10000000000000000000000,8
 L 1000
X
T=fuzz_trace_ppr
printf 'PPRT' > $C/$T/bad_magic_only.ppr
head -c 8 $C/$T/csr.ppr > $C/$T/header_cut.ppr
{ head -c 32 $C/$T/csr.ppr; printf '\001\377\377\377\377\377\377\377\377\377\377\377'; } > $C/$T/bad_varint.ppr
{ head -c 32 $C/$T/csr.ppr; printf '\377'; } > $C/$T/bad_op_byte.ppr
{ head -c 12 $C/$T/csr.ppr; printf '\377\377\377\377\377\377\377\377'; tail -c +21 $C/$T/csr.ppr; } > $C/$T/bad_header_count.ppr

# ---- x86 assembly: hand-written cases; the project's own test inputs in
# tests/data/asm are read in place by scripts/fuzz.sh (replay and run), not
# copied here.
AS=fuzz_asm
mkdir -p $C/$AS
w $AS small_loop.s <<'X'
	.text
	.globl	f
f:
.L3:
	vmovupd	(%rdi,%rax,8), %ymm0
	vfmadd231pd	(%rsi,%rax,8), %ymm1, %ymm0
	vmovupd	%ymm0, (%rdx,%rax,8)
	addq	$4, %rax
	cmpq	%rcx, %rax
	jne	.L3
	ret
X
w $AS objdump_small.txt <<'X'
0000000000001130 <f>:
    1130:	c5 fd 10 04 c7       	vmovupd (%rdi,%rax,8),%ymm0
    1135:	48 83 c0 04          	add    $0x4,%rax
    1139:	48 39 c8             	cmp    %rcx,%rax
    113c:	75 f2                	jne    1130 <f>
X
w $AS bad_insn.s <<'X'
	frobnicate %rax, %rbx
X
w $AS bad_operands.s <<'X'
	addq	(%rax,%rbx,3), %rcx
	movq	$, %rax
	vaddpd	%ymm0
	movq	0x(%rip,,), %rax
X
printf 'x:\n%.0s' $(seq 1 3) > $C/$AS/labels.s
head -c 300 /dev/zero | tr '\0' 'a' | sed 's/$/:\n\tret/' > $C/$AS/long_label.s

# ---- counter imports -----------------------------------------------------
PA=fuzz_papi
w $PA papi.txt <<'X'
This utility lets you add events from the command line interface to see if they work.

Successfully added: PAPI_TOT_CYC
Successfully added: PAPI_L1_DCM

PAPI_TOT_CYC :            123456789
PAPI_L1_DCM :                  4242

----------------------------------
Verification: Checks for valid event name.
 This utility lets you add events from the command line interface to see if they work.
command_line.c                          PASSED
X
w $PA bad_value.txt <<'X'
PAPI_TOT_CYC : lots
X
w $PA bad_huge.txt <<'X'
PAPI_TOT_CYC : 99999999999999999999999999
PAPI_L2_TCM : -1
X
PE=fuzz_perf
w $PE perf.csv <<'X'
# started on Sun Nov 22 00:00:00 2026

1234567,,cycles,1000000,100.00,,
4567,,instructions,1000000,100.00,1.00,insn per cycle
<not supported>,,L1-dcache-load-misses,0,100.00,,
<not counted>,,LLC-load-misses,0,0.00,,
12.50,msec,task-clock,12500000,100.00,0.998,CPUs utilized
X
w $PE bad_value.csv <<'X'
lots,,cycles,1,100.00,,
X
w $PE bad_fields.csv <<'X'
1234
,,,
X
w $PE quoted.csv <<'X'
"1,234",,"cycles",1,100.00,,
X
# ---- sweep results (results.jsonl): the readers of report and merge ----
for T in fuzz_results fuzz_sweep; do
w $T ok_error.jsonl <<'X'
{"key":{"input":"gen:laplace2d:n=64","machine":"machines/haswell.json","kernel":"spmv-csr","options":""},"status":"ok","elapsed_s":0.5,"max_rss_mb":12,"finished_unix":1763770000,"ppr_version":"0.1","sweep":{"shard":"1/2","input_index":0,"inputs_total":2,"keys_per_input":1},"result":{"flops":8192,"gflops":3.5,"roofline":{"dram_intensity":0.12},"levels":[{"name":"L1","bytes":1000},{"name":"MEM","bytes":500}]}}
{"key":{"input":"m.mtx","machine":"machines/zen4-epyc.json","kernel":"spmv-bcsr","options":"--block 2x2"},"status":"error","error":"m.mtx:3: bad value","elapsed_s":0.01,"finished_unix":1763770001}
{"key":{"input":"gen:laplace2d:n=64","machine":"machines/haswell.json","kernel":"spmv-csr","options":""},"status":"ok","elapsed_s":0.4,"finished_unix":1763770002,"result":{"flops":8192,"gflops":3.6,"measured_gflops":3.1}}
X
w $T bcsr_shapes.jsonl <<'X'
{"key":{"input":"gen:fem3d:n=8,dof=3","machine":"machines/haswell.json","kernel":"bcsr","options":""},"status":"ok","result":{"shapes":[{"shape":"1x1","predicted_gflops":2.0,"measured_gflops":1.8},{"shape":"3x3","predicted_gflops":4.1},{"shape":"8x8","predicted_gflops":1.0}],"pick":"3x3","measured_best":"1x1"}}
{"key":{"input":"gen:fem3d:n=8,dof=3","machine":"machines/zen4-epyc.json","kernel":"bcsr","options":""},"status":"ok","result":{"shapes":{"2x2":{"predicted_gflops":3.0},"9x9":{"predicted_gflops":1.0},"0x1":{"predicted_gflops":1.0}},"pick":"2x2"}}
X
w $T bad_lines.jsonl <<'X'
not json
[1,2,3]
{"status":"ok"}
{"key":{"input":1},"status":"maybe"}
{"key":{"input":"a","machine":"b","kernel":"c","options":"d"},"status":"ok"}

{"key":{"input":"a","machine":"b","kernel":"c","options":"d"},"status":"ok","result":{"flops":-1,"gflops":"x","roofline":{"dram_intensity":1e999}}}
X
printf '{"key":{"input":"a","machine":"b","kernel":"c","options":"d"},"status":"ok","result":{}}\n{"key":{"input":"cut' > $C/$T/partial_last_line.jsonl
done

echo "seeded: $(find $C -type f | wc -l) files in $(ls $C | wc -l) targets"
