/*
 * predict.c - one PPR prediction: (machine, kernel, input) -> time, the
 * phases, traffic per level split regular/irregular, ECM and Roofline.
 *
 * Notes:
 * - Data transfer comes from the simulator built from the machine file's
 *   hierarchy, cold caches, fed by the instrumented kernel (the same body
 *   as the native one).  Regular lines are those the kernel tags regular
 *   (row_ptr, col_idx, vals, y, conv input/output, FFT arrays); x of SpMV
 *   is irregular.
 * - eq. (2), regular data: a regular demand miss at level i-1 that hits
 *   level i came from level i; one that misses the last level came from
 *   memory.  Lines a level's prefetcher fetched are counted as coming from
 *   the level below it.  Each origin's bytes move at the narrowest link
 *   between it and L2 (model_min_bandwidth), latency hidden by prefetch
 *   (the paper's assumption).
 * - Stores and write-backs (the paper is silent): a store miss allocates
 *   (write-allocate, as every level of the shipped machines does), so its
 *   line is a fill like a load's; dirty lines evicted towards memory cost
 *   the same link bandwidth again, added to the regular bytes of the
 *   level they go to (y of SpMV, conv output); those to memory at the
 *   machine's memory.writeback_share of their bytes (below).  Write-backs
 *   still dirty at the end of the run are not counted (they happen after
 *   the kernel).
 * - eq. (3), irregular misses: one line per miss at each level at that
 *   level's incoming bandwidth, as the paper.  Where the machine's
 *   transfers overlap (model/ppr.c), the latency of the irregular misses
 *   L2 serves is taken as overlapped by memory-level parallelism (the
 *   col_idx loads that give x's addresses run far ahead), and the lines
 *   from beyond L2 are added to the memory instructions (measured: their
 *   latency is not hidden; model/ppr.c's notes).  Irregular references
 *   no prefetcher finds (far_emit below: random columns, R-MAT) cost the
 *   machine's far_miss_cycles of the level that serves them instead,
 *   L2 included.
 * - Branch mispredictions (the paper is silent): SpMV's inner loop ends
 *   where the predictor does not expect it when a row is not as long as
 *   the previous one (BCSR: a block row whose block count differs from
 *   the previous one's; until 2026-11-28 the proxy was its nonzeros, which
 *   saw none of the changes of rows of one length whose columns differ);
 *   each costs the machine's branch.loop_exit_miss_cycles (below), added
 *   after the overlap since a flush stops both sides.  It is what makes short irregular rows (road
 *   and census graphs, 2-5 nonzeros per row) 3-5x slower than the data
 *   traffic alone says.
 * - CSR (spmv-csr) counts the exits of the compiled loop itself: it runs
 *   pairs of nonzeros, then an odd remainder, so a row mispredicts once
 *   when its pair count differs from the previous row's and once when its
 *   parity does (model_spmv_csr_exit_changes).  Measured on this machine
 *   (bench/predict_branch.sh: rows of random length 1..9 against rows of
 *   constant length, x in L1): a change costs the machine's
 *   branch.loop_exit_miss_cycles (25 on zen4-epyc).  In repeated runs
 *   (the warm steady state `ppr measure` times) the history-based
 *   predictor learns the whole sequence of exits while a run has at most
 *   branch.learned_exit_changes of them (10,000 on zen4-epyc: the number
 *   of changes, not of branches, is what fills it: rows of 1..9 and of
 *   10..18 nonzeros lose the same share at the same row count, and so do
 *   road graphs' row sequences); beyond, the share 1 - 10,000 / changes
 *   mispredicts (model_exit_unlearned).  Cold predictions pay every
 *   change.  Long loops are learned less (bench/predict_branch.sh with
 *   LENGTHS="10-18 20-28 30-38 60-68 90-98 150-158", 2026-11-24): rows of
 *   random length 10..18 lose nothing up to 10,000 changes, 20..28 and
 *   30..38 already lose 15-30% of 2,500 changes and 45-65% of 5,000,
 *   and 60..68 and longer lose all of them at every size (20 of the 22
 *   cycles a full miss costs there).  The capacity for loops of t
 *   iterations (CSR: pairs) is taken as learned_exit_changes x
 *   (learned_exit_trips / t)^3 beyond branch.learned_exit_trips, per
 *   change by the loop it ends (model_exit_unlearned_hist).  Those
 *   random rows are the predictor's worst case; a FEM matrix's rows
 *   repeat their lengths, and its long rows are learned (nasa2910, 30
 *   pairs a row, is predicted within 1% with every exit learned).  So
 *   learned_exit_trips was 20 on zen4-epyc (now 32, below), not the 9
 *   the random rows suggest: of 9, 16, 20, 24 and 32, scored against two
 *   measurement sets of the 42 matrices of bench/predict_spmv.sh (the
 *   evening's 9.0% and the afternoon's 14.7% median error without the
 *   limit), 20 gave the
 *   lowest (8.2% and 13.3%); 9 gave 10.6% (FEM rows over-predicted by up
 *   to 26%).  MIT8 went from -21.5% to -7.0%, wiki-Vote from -11.8% to
 *   -0.1%.  A fitted figure: the pattern of the lengths matters as much
 *   as the length, and the model does not see the pattern.  Refitted on
 *   2026-11-25 to 32, against the first measurements taken at the
 *   kernels' fastest code placement with learned branches
 *   (kernels/README.md), which run long FEM rows 0-15% faster than the
 *   linker's placement did: median |error| on two sets 9.7/9.9% with 20,
 *   9.0/9.2% with 32 (28 to 64 all within 8.3-9.3%); the BCSR selection's
 *   mean share of the best 0.976/0.968 -> 0.980/0.971 (ct2010 now 4x1).
 * - Learned over runs, not within one (2026-11-27, bench/predict_warmup.sh):
 *   de2010's CSR SpMV took 140 us after 1 untimed run and 56-60 us after
 *   20 or more, which the measurements above (1 untimed run, the median
 *   of 10) did not reach; vt2010 keeps learning slowly (276 us after 1,
 *   260 after 50, 223 after 1000).  `ppr measure` now warms up for up
 *   to 50 runs (0.5 s; 500 since the evening, when de2010 needed 100;
 *   since 2026-12-04 on while the runs still get faster, up to 2 s:
 *   vsp_befref measured 71-120 us by where 500 runs left the learning,
 *   kernels/kernels.h), and the model predicts that state (zen4-epyc's
 *   capacity refitted to it: 14,500 -> 15,750, model/README.md, section
 *   of 2026-12-04 17:31).  Measured so,
 *   rows of random length 1..9 (bench/predict_branch.sh, x in L1) lose
 *   0.6 cycles per change at 31,000 changes, 15-16 at 42,000 and 18-19
 *   at 63,000 and 84,000: the predictor keeps a run's sequence whole up
 *   to its capacity and loses most of it just beyond, never all of it.
 *   So CSR's share beyond the capacity is branch.csr_unlearned_max x (1 -
 *   (learned_exit_changes / changes)^csr_unlearned_exponent)
 *   (model_exit_unlearned_form; zen4-genoa 30,000, 8 and 0.6: the 42
 *   matrices of bench/predict_spmv.sh, measured after 50 runs, from median
 *   6.0% / worst 105.1% (de2010, +105%) with 20,000 and the linear share
 *   to 6.0% / 21.4%; machine files without the keys keep the linear
 *   share).  The sequence matters as well as its length: delaunay_n16's
 *   rows lose 11-15 cycles per change at 37,000-74,000 changes, vt2010's
 *   19-21 at 39,000; the model sees only the count.  BCSR keeps the
 *   linear share at its own capacity (branch.bcsr_learned_exit_changes,
 *   13,800 on zen4-genoa: the 20,000 x 0.69 its selection was fitted
 *   with against `ppr bcsr --measure` when its samples followed 6
 *   untimed runs; checked again after they came to follow 50 (or 30 ms,
 *   cli/cmd_bcsr.c's MEAS_WARM_RUNS, 15c38de): 17,000 moved no pick,
 *   20,700 and 25,000 moved de2010 to 1x1 at 0.554 of its best; rescored
 *   on the 20 stored passes of 2026-11-28..29, 12,000 and 13,000 gave 60
 *   and 21 picks below 0.95 of the best, 13,800 21; model/README.md).
 * - What fills the predictor (2026-12-02, the Granite Rapids guest,
 *   machines/xeon-gnr.json): rows of random length 1..9 lose their exits
 *   there from about 2,600 changes (2,000 rows) on, but the medium
 *   matrices Pd and rajat01, 7,090 and 6,805 changes, lose none
 *   (bench/predict_branch.sh ROWS_FROM=...: 0.0-0.6 cycles a row), so
 *   the count of changes over-predicted them by 301% and 137%.  A
 *   history predictor needs an entry per context, not per change: a
 *   structured matrix's sequence of lengths repeats, and one entry serves
 *   every row after the same lengths.  With branch.history_rows = k > 0
 *   the fill is the number of distinct (lengths of the previous k rows,
 *   this row's length) among the changing rows
 *   (model_spmv_csr_exit_contexts): at k = 8, Pd 826 and rajat01 1,453,
 *   random rows about one per changing row, wiki-Vote 6,369 of its
 *   9,003 changes.  The share 1 - capacity / fill of the changes
 *   mispredicts (model_exit_unlearned_fill).  On that guest, capacity
 *   1,800 and 20 cycles a miss from the random rows (1..9 and 10..18:
 *   18.8-20.6 cycles a change at 64,000 rows), learned_exit_trips 13
 *   from rows of 30..38 (38% lost at 1,284 changes): median |error| of
 *   the 42 of bench/predict_spmv.sh 6.2% -> 4.9%, worst 58.2% (wiki-Vote)
 *   -> 31.3% (rmat scale 18, not a branch matter); wiki-Vote -58% ->
 *   -18%, MIT8 -27% -> -11%, astro-ph -26% -> -14%, Pd and rajat01
 *   within 3% (against the 6 stored rounds of 2026-12-01; k of 4, 8 and
 *   16 with capacities 1,500-2,200 gave medians of 4.5-6.8%, 16 with
 *   1,500 put Pd at +79%).  BCSR counts its block-row changes per shape
 *   (model/bcsr_select.c) and scales them by the matrix's CSR histories
 *   per changing row (model_exit_fill_ratio): a proxy, block rows taken
 *   to repeat as the rows do.  zen4-genoa keeps k = 0: its capacity
 *   was fitted on changes.  zen4-epyc counts histories of 32 rows since
 *   2026-12-05 (bench/predict_branch.sh PERIOD=...: rows of 0 or 6
 *   nonzeros at random, the sequence repeating every 1,000-10,000 of a
 *   run's 100,000 rows, lost no exit, 50,000 changes a run; never
 *   repeating, 23-24 cycles a change; counted in changes, the model had
 *   put both at the same 300-370 us and `ppr bcsr` picked 4x1 at 0.615
 *   of the best); its capacity 15,750 changes became 10,900 histories,
 *   vsp_befref's histories per change (0.69; the real matrices have one
 *   history per changing row), which moved the 42 of
 *   bench/predict_spmv.sh by at most 1.4 points and no BCSR pick of the
 *   43 (model/README.md, 2026-12-05).  32 rows, not 8 (the Intel files'
 *   first value): two row lengths make at most 2^9 histories of 8 rows,
 *   so random rows of two lengths looked learned (261 histories for
 *   50,043 changes); on the real matrices 8 and 32 differ by at most
 *   2.7%.
 * - BCSR (spmv-bcsr, and every shape of `ppr bcsr`): a block row whose
 *   block count differs from the previous one's mispredicts its exit, at
 *   the same branch.loop_exit_miss_cycles as CSR's exits (until
 *   2026-11-24 a textbook 15 cycles, from Agner Fog's range for Zen; with
 *   the measured 25 the mean share of the best over the 39 medium
 *   matrices went from 0.940 to 0.951, against the same measurements),
 *   with the same learning limit per run as
 *   CSR's exits in warm runs.  Without it the selection charged 1x1 the
 *   full cost of every change on small matrices and picked 2x1 / 4x1 for
 *   fewer changes; with it (bench/predict_bcsr.sh, 39 medium matrices,
 *   2026-11-24) the share of the measured best went from mean 0.924 /
 *   min 0.673 / >= 0.95 on 21 to 0.951 / 0.748 / 26, and in a third
 *   run with the 4 generated matrices 0.968 / 0.764 / 33 of 43 (the
 *   measured figures themselves moved up to 2x between runs on some
 *   matrices: the guest's memory is shared).  The capacity is per loop
 *   run, not per change: BCSR 1x1 and CSR on the same rows of random
 *   length 1..9 lose their exits between 12,000 and 16,000 rows, CSR
 *   with 1.29 changes a row (pair loop and parity test), BCSR with 0.89
 *   (bench/predict_branch.sh, KERNEL=spmv-bcsr, 2026-11-25), so BCSR's
 *   changes get MODEL_BCSR_LEARNED_SHARE (0.69) of learned_exit_changes.
 *   Against seven stored measurements of all 64 shapes of the 39 medium
 *   matrices (exact counts) the mean share of the best went from 0.9793
 *   to 0.9820 (de2010, vt2010 and vsp_sctap now 3x1 or 4x1, wiki-Vote
 *   1x1; EX5 2x1 for 1x1); 0.6 to 0.8 score 0.981-0.983.
 *   Random rows of 10..18 (1x1 blocks) lose theirs from 4,000 rows on;
 *   the model keeps learned_exit_trips for real matrices, whose long
 *   rows repeat their lengths.
 * - Overlap (machine hierarchy.transfers_overlap, model/ppr.c): on AMD
 *   Zen the memory side is the slowest of S_DAG(memory) and each link's
 *   lines, not their sum.  On zen4-epyc.json, against the same
 *   measurements (39 medium matrices and 3 generated ones, least of two
 *   medians of 20 runs, load 2), the median absolute error of CSR SpMV
 *   went from 34% to 17% with overlap, the exclusive-L3 fix and the
 *   measured branch cost, and to 13% with the branch learning limit.
 * - Shared last level (machine key usable_ways, machines/machine.c): the
 *   zen4-epyc guest's L3 also holds other tenants' lines, so a 20 MB
 *   working set (laplace3d n=60) runs at DRAM speed while 10.6 MB (n=50)
 *   runs at L3 speed; `ppr machine detect` measures the capacity the
 *   program gets (read bandwidth halfway between L3's and memory's at
 *   15.5-23 MiB of 32; since 2026-11-25 where it has lost a tenth of that
 *   fall, model/detect.c) and the level is simulated with that share of
 *   its ways (9 of 16).  What the share keeps of a sweep larger than it
 *   moves with the tenants too: on the Zen 4 host the 3-D Laplacian n=60
 *   ran as if its L3 kept none of its stream on some days (LRU's figure)
 *   and part of it on others, so zen4-genoa.json simulates its L3 as DIP
 *   in a quarter of its sets and LRU in the rest (lru_sets_share 0.75,
 *   sim/sim.c; model/README.md, 2026-11-28); zen4-epyc.json's too since
 *   2026-12-03 (the Zen 5 host: laplace3d n=60 over five stored passes
 *   -3..+29% with LRU, -22..+4% so).
 * - CSR's memory bandwidth (machine key memory.csr_bandwidth_gbs): on the
 *   zen4-epyc guest (2026-11-25) CSR SpMV streams from memory at 26 GB/s
 *   with rows of 5-9 nonzeros, 32 at 11 and 38-39 at 15-55 (banded
 *   matrices of about 400 MB, `ppr measure`), against 36-42 GB/s for a
 *   read of one array; neither an overlap nor a sum of the in-core time
 *   and the transfers fits both (model/README.md).  `ppr machine detect`
 *   measures that table with the CSR kernel on banded matrices (which are
 *   not in the bench lists) and the memory link of a CSR prediction takes
 *   the figure at the matrix's mean row length.  Laplacians from memory
 *   went from -45..-51% to -11..-22% (laplace3d n = 80, 100, 120,
 *   laplace2d n = 2000), fem3d dof 1 from -27% to -20%, fem3d dof 2, 3
 *   from -8% to +1..+2%.
 * - Accuracy on zen4-epyc.json (bench/predict_spmv.sh, 42 matrices, least
 *   of 3 medians of 10 warm runs, wall time, load 4.3-6.2, 2026-11-22
 *   03:00-03:10 UTC): before usable_ways and the exit-change learning
 *   limit, PPR median |error| 23.6%, worst 69.7% (rmat scale 18),
 *   road graphs vt2010 / de2010 -36% / -50%; after, 11.4% and 58.5%
 *   (vt2010 -21%, de2010 -16%); ECM 46%, Roofline 67%.  Again at load
 *   1.2-2.1 (03:35 UTC): PPR 10.0%, worst 41.4% (rmat scale 18), then
 *   MIT8 -32%, astro-ph -30%, pushpull -27%, EX5 -27% (long rows, below),
 *   laplace3d n=60 -25%; ECM 51%, Roofline 65%.  The DRAM-bound ones
 *   vary by 1.4-1.8x between rounds under load (other tenants share the
 *   memory: laplace3d n=60 measured 0.90-1.27 ms), and one core's SpMV
 *   stream reaches 18-26 GB/s where the read kernel of `ppr machine
 *   detect` reaches 28-35.
 * - On the guest of 2026-11-24 (Firecracker, idle, core clock 3.48 GHz
 *   by dependent adds; predict_spmv.sh, least of 3 medians of 10 warm
 *   runs): with the file's old 3.7 GHz, PPR median |error| 16.5%, all
 *   but a few too fast; with the detected 3.48 GHz (now in zen4-epyc.json)
 *   9.7% / 12.7% / 9.7% in three runs, worst -37% to -40% (rmat scale
 *   18); beyond 25%: laplace3d n=60 (-19% to -35% between runs: the
 *   20 MB set sits at the edge of the L3 share other tenants leave),
 *   MIT8, astro-ph, wing, wiki-Vote, pushpull (-25% to -31%).  ECM 52-55%,
 *   Roofline 65-66%.  The misses are all on the slow side: power-law
 *   graphs (x misses whose latency the model takes as hidden) and long
 *   rows (below).
 * - 2026-11-24 evening, same guest: the DAG's load slots (FP loads take 2
 *   of 4) and CSR's pairs per row (model/loops.c) together, scored
 *   against one set of measurements (bench/predict_spmv.sh MEASURED=,
 *   least of 8 rounds' medians over 15 minutes, a slow spell of the
 *   guest: Pd 12.6 us where it measured 6.3-6.7 us at noon and 8.4-11.5
 *   us between rounds): median |error| 20.9% -> 14.7%; the worst stays a
 *   short-row matrix measured in the slow spell (Pd -58%).  Rows of
 *   constant length 1..8 (x in L1, the fast spell) are within 2-6% from
 *   3 nonzeros up, -14% at 2 and -22% at 1.
 * - Write-backs to memory (memory.writeback_share, default 1): one
 *   core's memory bandwidth is set by the fills it keeps in flight; a
 *   write-back leaves the last level without holding a fill buffer.  On
 *   the Zen 4 guest (2026-11-27, one core) one read stream moved 25-32
 *   GB/s, one read and one write stream 36-47 GB/s and four reads and one
 *   write 32-42 GB/s, counted as the simulator counts them (a fill per
 *   line read or written, a write-back per line written): the fills alone
 *   moved about the read figure.  `ppr machine detect` measures the share
 *   as the read and copy streams' rates give it (detect_writeback_share):
 *   0.24-0.28 in three runs, 0.26 in zen4-genoa.json.  The convolution's
 *   algorithm 3 from memory (4 read streams, 1 write) measured 50.3
 *   GFLOPS, predicted 43.2 with every write-back counted (-14%) and 49.6
 *   with 0.26.  CSR from memory keeps every write-back: its bandwidth
 *   table (memory.csr_bandwidth_gbs) is measured on the CSR kernel, its
 *   stores included, and applying the share there moved the 3-D
 *   Laplacian n = 120 from -13% to -18% (bench/predict_spmv.sh pass 6).
 *   A cache level takes the level key writeback_share (default 1) for
 *   the write-backs it gets from the level above: on the Granite Rapids
 *   guest (2026-12-02, ppr machine detect) a copy stream in half the L3
 *   share moved 14.0 GB/s against a read stream's 28.4, so write-backs
 *   into L3 took none of its fill bandwidth (0.00-0.03); with 0 the
 *   convolution's algorithm 3 from L3 (4 read streams, 1 write) went
 *   from -15% to -8% and arrow's CSR (L2-sized: its lines come from L3)
 *   from +24% to +8% against the measurements of that morning.
 * - Late lines (the paper is silent; machine key late_line_cycles, per
 *   level and memory): on the Granite Rapids guest (2026-12-02, ppr conv
 *   --measure) the convolution's algorithm 2, 7 of whose 16 pairs of
 *   loads cross a line, ran 44.4-48.0 GFLOPS from L3 (n = 0.5M-3M) and
 *   24.4-24.8 from memory (n = 30M-100M), where eq. (4) says 78.0 and
 *   54.5 (its 2 lines a block are far from either bandwidth), and no
 *   faster than algorithm 3 with 4x its data (45.2-46.9 and 23.8-25.3).
 *   The same loop outside ppr (huge pages) took 34-37 cycles a block
 *   from L3 and 69-84 from memory; with a software prefetch 8-16 lines
 *   ahead 24.8 and 34.0 (its L2 figure, and memory's bandwidth for 3
 *   lines), and with the same loads moved so that none crosses a line
 *   17.6 and 34.3.  So a line first touched by line-crossing loads comes
 *   late: the prefetchers do not bring it to L1 before them, and the loop
 *   waits as its reorder window and schedulers allow.  The model takes
 *   that as the loop's schedule (the DAG) with every load taking the
 *   level's late_line_cycles, a lower bound on the time for loops without
 *   irregular data whose compiled loads cross lines (late_lines below,
 *   weighted by the regular lines each origin fills).  The figure depends
 *   on the loop as well as on the machine (the loop above without its
 *   stores took 133 cycles a block from memory): fitted with
 *   bench/fit_late.sh on algorithm 2, it serves loops like it.  SpMV
 *   keeps its own terms (x is irregular: far costs), FFT's loops have no
 *   line-crossing loads, and BCSR's value loads were not measured for it.
 *   Memory's figure may be given in ns (memory.late_line_ns, turned into
 *   cycles at the file's clock when it loads): the DRAM's latency does
 *   not follow the core clock.
 * - Fills on the loads (the paper is silent; machine key
 *   fill_load_cycles of the first level): a line written into L1 from
 *   below takes the data array from the loads for about a cycle.  On the
 *   Granite Rapids guest (2026-12-02, a stream of two 32-byte loads a
 *   line plus E loads a line that hit L1) a line cost, with the stream in
 *   L1 / in L2: E = 1: 1.08 / 2.03 cycles, E = 2: 1.50 / 2.45, E = 4:
 *   2.21 / 3.28, E = 7: 3.28 / 4.33, E = 10: 4.30 / 5.53: the loads' own
 *   time plus 1.0-1.2 cycles a line, not the larger of it and the L2
 *   link's 1.52 cycles a line (the stream alone).  The convolution's
 *   algorithm 3 from L2 (5 lines filled a block, loads on 3 ports for 22
 *   cycles a block) ran 65.9 GFLOPS where eq. (4) said 82.0, algorithm 2
 *   (2 lines) 72.9 for 78.3.  The model takes S_DAG(memory) as at least
 *   the busiest load port's cycles (the DAG's port pressure) plus the
 *   first level's fills times fill_load_cycles: loops whose loads keep
 *   the ports busy pay them, loops whose memory schedule waits on
 *   latencies fit the fills in the idle port cycles.  Only regular lines
 *   count: an irregular line is a demand miss whose data goes to the
 *   load waiting for it (with x's misses counted as well, the stored CSR
 *   rounds of the 15 random-column matrices went from a median error of
 *   8.9% to 19.0%, wing from +20% to +74%).  ppr machine detect measures
 *   the figure with that stream (E = 4).  `ppr bcsr` leaves it out: added
 *   to its block loops' S_DAG(memory), the stored --measure pass of the
 *   43 matrices went from a mean share of the best of 0.976 to 0.969
 *   (de2010 to 1x1, 0.683 of its best).
 * - Not modelled: long rows: the exits of rows of more than about 15 pairs
 *   are learned less well however few changes a run has
 *   (bench/predict_branch.sh, 4,000 rows, 5,139 changes, LENGTHS 30-38 ..
 *   100-108 nonzeros: 3.5, 6.7, 14, 20, 23 cycles per change where 10-18 and
 *   20-28 cost nothing; 500 rows of 100-108 already 18 cycles), presumably
 *   because a row's exit lies beyond the history that distinguishes it; MIT8
 *   (78 nonzeros per row, 9,570 changes: 10.5 measured), pushpull (49: 19)
 *   and EX5 (25: 37) are under-predicted by that (ROWS_FROM runs of their
 *   own row sequences, 03:09 UTC).
 * - ECM (Kerncraft form): T_OL = S_DAG(compute), T_nOL = S_DAG(memory),
 *   transfer terms = (misses + write-backs) x line at each level / that
 *   link's bandwidth, summed.
 * - Roofline: peak = flops per cycle x clock (single precision for the
 *   convolution, double otherwise); cache-aware ceilings use the same
 *   per-level bytes; the DRAM roofline uses the bytes to/from memory.
 */
#include "model/predict.h"
#include "common/ppr_hot.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/sim.h"

/* Rows / block rows and inner flops of an SpMV run, from its description
 * ("spmv-csr IN (R x C, nnz N)", "spmv-bcsr RxC IN (R x C, nnz N, B
 * blocks, fill F)"): kernels.h has no accessor for them. */
static void spmv_work(const struct kernel_run *run,
		      const struct kernel_params *p, struct model_work *w)
{
	const char *d = kernel_run_describe(run);
	const char *par = strrchr(d, '(');
	unsigned long long rows = 0, cols = 0, nnz = 0, nb = 0;
	unsigned r = p->block_r ? p->block_r : 1, c = p->block_c ? p->block_c : 1;

	if (par && sscanf(par, "(%llu x %llu, nnz %llu, %llu blocks", &rows,
			  &cols, &nnz, &nb) >= 3) {
		if (!strncmp(d, "spmv-bcsr", 9) && nb) {
			double brows = ceil((double)rows / r);

			w->outer_iters = brows;
			w->inner_flops_per_outer = brows > 0 ?
				2.0 * (double)nb * r * c / brows : 0;
			w->total_flops = 2.0 * (double)nb * r * c;
		} else {
			w->outer_iters = (double)rows;
			w->inner_flops_per_outer = rows ?
				2.0 * (double)nnz / (double)rows : 0;
			w->total_flops = 2.0 * (double)nnz;
		}
	}
}

/* a -= b for the counters the model reads */
static void stats_sub(struct sim_level_stats *a,
		      const struct sim_level_stats *b)
{
	unsigned op, t;

	for (op = 0; op < PPR_NOPS; op++)
		for (t = 0; t < PPR_NTAGS; t++) {
			a->accesses[op][t] -= b->accesses[op][t];
			a->misses[op][t] -= b->misses[op][t];
			a->hits[op][t] -= b->hits[op][t];
		}
	a->prefetches_issued -= b->prefetches_issued;
	a->prefetches_useful -= b->prefetches_useful;
	a->writebacks -= b->writebacks;
	a->evictions -= b->evictions;
	a->bytes_from_below -= b->bytes_from_below;
	a->bytes_to_below -= b->bytes_to_below;
}

double model_spmv_length_hist(const struct csr *a, unsigned r, unsigned c,
			      double *hist)
{
	uint64_t i, prev = UINT64_MAX, n = 0, nbc, *stamp;
	unsigned t;

	if (!r)
		r = 1;
	if (!c)
		c = 1;
	for (t = 0; t <= MODEL_EXIT_TMAX; t++)
		hist[t] = 0;
	/* the block row's blocks: its distinct block columns, marked with
	 * the block row's number (1, 2, ...); without the memory for the
	 * marks, at least its nonzeros over r * c */
	nbc = a->cols / c + 1;
	stamp = calloc(nbc, sizeof(*stamp));
	for (i = 0; i < a->rows; i += r) {
		uint64_t i1 = i + r < a->rows ? i + r : a->rows;
		uint64_t len = a->row_ptr[i1] - a->row_ptr[i], tr, k;
		uint64_t br = i / r + 1;

		if (stamp) {
			tr = 0;
			for (k = a->row_ptr[i]; k < a->row_ptr[i1]; k++) {
				uint64_t j = a->col_idx[k] / c;

				if (stamp[j] != br) {
					stamp[j] = br;
					tr++;
				}
			}
		} else {
			tr = (len + (uint64_t)r * c - 1) / ((uint64_t)r * c);
		}
		if (tr != prev) {
			n++;
			hist[model_exit_bucket(tr)] += 1;
		}
		prev = tr;
	}
	free(stamp);
	return (double)n;
}

double model_spmv_csr_exit_changes(const struct csr *a, double *branches,
				   double *hist)
{
	uint64_t i, prev_pairs = UINT64_MAX, prev_odd = 2, n = 0, b = 0;
	unsigned t;

	for (t = 0; hist && t <= MODEL_EXIT_TMAX; t++)
		hist[t] = 0;
	for (i = 0; i < a->rows; i++) {
		uint64_t len = a->row_ptr[i + 1] - a->row_ptr[i];
		unsigned ch = (len / 2 != prev_pairs) + ((len & 1) != prev_odd);

		n += ch;
		if (hist)
			hist[model_exit_bucket(len / 2)] += ch;
		prev_pairs = len / 2;
		prev_odd = len & 1;
		/* pair test, pair loop back edges, remainder test, outer */
		b += 3 + len / 2;
	}
	if (branches)
		*branches = (double)b;
	return (double)n;
}

/* splitmix64's finaliser: a 64-bit mix of a history's polynomial hash,
 * so that the set's slots spread. */
static uint64_t ctx_mix(uint64_t h)
{
	h ^= h >> 30;
	h *= 0xbf58476d1ce4e5b9u;
	h ^= h >> 27;
	h *= 0x94d049bb133111ebu;
	return h ^ (h >> 31);
}

/* Row i - d's length, or CTX_BEFORE for the rows before the first. */
#define CTX_BEFORE 0x5bd1e9955bd1e995u
#define CTX_BASE 0x100000001b3u /* odd: the hash's multiplier */
static uint64_t ctx_len(const struct csr *a, uint64_t i, uint64_t d)
{
	return i >= d ? a->row_ptr[i - d + 1] - a->row_ptr[i - d] :
	       CTX_BEFORE;
}

/* A history's hash h: the sum over d = 0..k of len(i - d) x BASE^d,
 * rolled one row on at a time (*top = BASE^(k + 1) takes the row that
 * leaves, ctx_roll); before row 0 the window holds k + 1 rows of
 * CTX_BEFORE, which is the h returned. */
static uint64_t ctx_start(unsigned k, uint64_t *top)
{
	uint64_t h = 0;
	unsigned d;

	*top = 1;
	for (d = 0; d <= k; d++) {
		h = h * CTX_BASE + CTX_BEFORE;
		*top *= CTX_BASE;
	}
	return h;
}

/* h rolled on to row i (of len nonzeros) */
static uint64_t ctx_roll(const struct csr *a, uint64_t h, uint64_t top,
			 uint64_t i, unsigned k, uint64_t len)
{
	return h * CTX_BASE + len - top * ctx_len(a, i, (uint64_t)k + 1);
}

/* Whether a row of len nonzeros changes the CSR loop's exits after a
 * row of prev_pairs pairs and parity prev_odd (model_spmv_csr_exit_changes
 * counts both kinds; the histories count the row once) */
static int exit_changes_row(uint64_t len, uint64_t prev_pairs,
			    uint64_t prev_odd)
{
	return len / 2 != prev_pairs || (len & 1) != prev_odd;
}

double model_spmv_csr_exit_contexts(const struct csr *a, unsigned k,
				    double *change_rows)
{
	uint64_t i, prev_pairs = UINT64_MAX, prev_odd = 2, nch = 0, cap = 2;
	uint64_t *set, distinct = 0, h, top;

	if (change_rows)
		*change_rows = 0;
	if (!k)
		return -1;
	for (i = 0; i < a->rows; i++) {
		uint64_t len = a->row_ptr[i + 1] - a->row_ptr[i];

		nch += exit_changes_row(len, prev_pairs, prev_odd);
		prev_pairs = len / 2;
		prev_odd = len & 1;
	}
	if (change_rows)
		*change_rows = (double)nch;
	while (cap < 2 * nch)
		cap <<= 1;
	set = calloc(cap, sizeof(*set));
	if (!set)
		return -1;
	h = ctx_start(k, &top);
	prev_pairs = UINT64_MAX;
	prev_odd = 2;
	for (i = 0; i < a->rows; i++) {
		uint64_t len = a->row_ptr[i + 1] - a->row_ptr[i], x, s;

		h = ctx_roll(a, h, top, i, k, len);
		if (exit_changes_row(len, prev_pairs, prev_odd)) {
			x = ctx_mix(h);
			x += !x; /* 0 marks a free slot */
			for (s = x & (cap - 1); set[s] && set[s] != x;
			     s = (s + 1) & (cap - 1))
				;
			if (!set[s]) {
				set[s] = x;
				distinct++;
			}
		}
		prev_pairs = len / 2;
		prev_odd = len & 1;
	}
	free(set);
	return (double)distinct;
}

/*
 * model_spmv_csr_exit_contexts estimated in a fixed 8 KiB: the histories'
 * hashes go into a HyperLogLog sketch (Flajolet, Fusy, Gandouet and
 * Meunier, 2007) of CTX_REGS registers, each the most leading zeros + 1
 * seen among the hashes of its bucket; the count is linear counting
 * (CTX_REGS ln(CTX_REGS / empty registers)) while that stays under 3
 * CTX_REGS, where it is within about 1% (Whang, Vander-Zanden and
 * Taylor, 1990), else the sketch's harmonic mean, within about 1.04 /
 * sqrt(CTX_REGS) = 1.1%.  For `ppr bcsr`: the exact count's table of 16
 * bytes per changing row cost a fresh process more than the selection
 * itself on the road graphs (its pages' first touches: de2010 525 ->
 * 1,232 us, delaunay_n16 735 -> 1,752, R-MAT scale 20 104 -> 159 ms;
 * model/README.md, 2026-12-05).  Clamped to the changing rows.
 */
#define CTX_BITS 13
#define CTX_REGS (1u << CTX_BITS)
PPR_SELECT_TEXT
static double exit_contexts_sketch(const struct csr *a, unsigned k,
				   double *change_rows)
{
	uint64_t i, prev_pairs = UINT64_MAX, prev_odd = 2, nch = 0, h, top;
	uint8_t *reg = malloc(CTX_REGS);
	double sum = 0, est;
	unsigned j, empty;

	*change_rows = 0;
	if (!reg)
		return -1;
	memset(reg, 0, CTX_REGS);
	h = ctx_start(k, &top);
	/* without branches: whether a row changes is a coin toss on the
	 * road graphs (with a branch, most of the pass's time) */
	for (i = 0; i < a->rows; i++) {
		uint64_t len = a->row_ptr[i + 1] - a->row_ptr[i], x, w;
		unsigned rank, ch, r;

		h = ctx_roll(a, h, top, i, k, len);
		ch = (unsigned)exit_changes_row(len, prev_pairs, prev_odd);
		nch += ch;
		x = ctx_mix(h);
		/* the top bits pick the register, the rest's leading
		 * zeros (a guard bit bounds them) */
		w = x << CTX_BITS | (uint64_t)1 << (CTX_BITS - 1);
		rank = ((unsigned)__builtin_clzll(w) + 1) & (0u - ch);
		j = (unsigned)(x >> (64 - CTX_BITS));
		r = reg[j];
		reg[j] = (uint8_t)(rank > r ? rank : r);
		prev_pairs = len / 2;
		prev_odd = len & 1;
	}
	{
		unsigned cnt[64] = { 0 };

		for (j = 0; j < CTX_REGS; j++)
			cnt[reg[j]]++;
		empty = cnt[0];
		for (j = 0; j < 64; j++)
			sum += ldexp((double)cnt[j], -(int)j);
	}
	free(reg);
	*change_rows = (double)nch;
	est = empty ? CTX_REGS * log((double)CTX_REGS / empty) : -1;
	if (est < 0 || est > 3.0 * CTX_REGS)
		est = 0.7213 / (1 + 1.079 / CTX_REGS) * CTX_REGS *
		      (double)CTX_REGS / sum;
	return est < (double)nch ? est : (double)nch;
}

PPR_SELECT_TEXT
double model_exit_fill_ratio(const struct machine *m, const struct csr *a)
{
	double rows, n;

	if (!(m->exit_history_rows > 0))
		return 1;
	n = exit_contexts_sketch(a, (unsigned)m->exit_history_rows, &rows);
	return n > 0 && rows > 0 ? n / rows : 1;
}

PPR_SELECT_TEXT
double model_exit_unlearned_form(double changes, double learned,
				 double expo, double umax, int cold)
{
	if (cold)
		return 1;
	if (changes <= learned)
		return 0;
	/* pow(q, 1) is q exactly: expo = umax = 1 is 1 - learned / changes */
	return umax * (1 - pow(learned / changes, expo));
}

PPR_SELECT_TEXT
double model_exit_unlearned(double changes, double learned, int cold)
{
	return model_exit_unlearned_form(changes, learned, 1, 1, cold);
}

PPR_SELECT_TEXT
double model_exit_capacity(double learned, double trips, unsigned t)
{
	double q = trips / t;

	return trips > 0 && t > trips ? learned * q * q * q : learned;
}

double model_exit_unlearned_hist(const double *hist, double learned,
				 double trips, double expo, double umax,
				 int cold)
{
	return model_exit_unlearned_fill(hist, 0, learned, trips, expo, umax,
					 cold);
}

double model_exit_unlearned_fill(const double *hist, double fill,
				 double learned, double trips, double expo,
				 double umax, int cold)
{
	double total = 0, miss = 0;
	unsigned t;

	for (t = 1; t <= MODEL_EXIT_TMAX; t++)
		total += hist[t];
	if (fill > 0)
		total = fill;
	for (t = 1; t <= MODEL_EXIT_TMAX; t++)
		if (hist[t] > 0)
			miss += hist[t] * model_exit_unlearned_form(total,
				model_exit_capacity(learned, trips, t), expo,
				umax, cold);
	return miss;
}

/*
 * The CSR kernel runs pairs of nonzeros, then one more on rows of odd
 * length: the mean whole pairs per row and the share of rows with no
 * remainder (model_kernel_dag).
 */
static void csr_pairs(const struct csr *a, struct model_work *w)
{
	uint64_t i, pairs = 0, even = 0;

	for (i = 0; i < a->rows; i++) {
		uint64_t len = a->row_ptr[i + 1] - a->row_ptr[i];

		pairs += len / 2;
		even += !(len & 1);
	}
	if (!a->rows)
		return;
	w->have_inner_mean = 1;
	w->inner_mean = (double)pairs / (double)a->rows;
	w->remainder_skip = (double)even / (double)a->rows;
}

static int is_spmv(const struct kernel_params *p)
{
	return !strncmp(p->kernel, "spmv", 4);
}

/*
 * The share of the core's memory time that runs after a stream from
 * memory instead of under it (model_ppr_in.stream_serial; notes):
 * min(1, memory.far_stream_serial x phi), phi the far references' share
 * of the first level's misses, phased in as the kernel's footprint goes
 * from the last level's simulated (usable) size to its whole size, where
 * the sharp end of the simulated LRU level is not what the shared level
 * does (its other tenants leave a varying share).  SpMV only: it was
 * measured on CSR (model/ppr.c notes); the FFT's strided references,
 * also far, were not.
 */
static double from_memory_phase(const struct machine *m, double footprint)
{
	unsigned last = m->hier.nlevels ? m->hier.nlevels - 1 : 0;
	double use, full, s;

	if (!m->hier.nlevels)
		return 0;
	use = (double)m->hier.levels[last].size;
	full = (double)m->level[last].size_bytes;
	if (full > use)
		s = (footprint - use) / (full - use);
	else
		s = footprint > use ? 1 : 0;
	return s < 0 ? 0 : s > 1 ? 1 : s;
}

static double stream_serial(const struct machine *m,
			    const struct model_prediction *out,
			    double footprint)
{
	double far = fmin((double)out->lev[0].misses_far,
			  (double)out->lev[0].misses_irregular);
	double reg = (double)out->lev[0].misses_regular;
	double phi;

	if (!(m->mem_far_stream_serial > 0) || !m->transfers_overlap ||
	    !m->hier.nlevels || !(far + reg > 0))
		return 0;
	phi = far / (far + reg);
	return fmin(1, m->mem_far_stream_serial * phi) *
	       from_memory_phase(m, footprint);
}

/*
 * Jumps between x's streams (memory.stream_jump_cycles; SpMV: measured on
 * CSR, and BCSR's x loads jump the same way).  A stencil's row takes x
 * from several streams at fixed distances (5-point Laplacian: i - n,
 * i - 1 .. i + 1, i + n); the kernel's x loads go from one to the next
 * and back, and each such near
 * reference more than MODEL_JUMP_DIST lines from the one before it is a
 * jump (far_emit: far references are held-up streams already).  From
 * memory the hardware loses time per jump that neither the bytes nor
 * the banded matrices of memory.csr_bandwidth_gbs show.  Measured on the
 * Zen 5 guest (2026-12-06, `ppr measure`, 1.73M rows of 5 nonzeros at
 * columns i - d, i - 1, i, i + 1, i + d, 145 MB): d = 2, 8, 16, 32 ran
 * 5.4-5.9 ms, d = 64 6.0-6.5, d = 1315 and 16384 6.9-7.2 (the same bytes;
 * 1.1 cycles per jump at 3 jumps a row, beside the banded matrices of the
 * CSR table); the 3-D Laplacian n = 120, 5 jumps a row, likewise 1.1 over
 * that day's prediction.  Resident in L2 (12,000 rows) or the L3
 * (150,000) the same matrices lost nothing, so the cycles go to the
 * memory link's time, phased in with the footprint as stream_serial's
 * share.  The figure is not constant: over six stored passes of
 * bench/predict_spmv.sh (2026-12-06) the Laplacian ran 8.8-9.3 ms in
 * every one while the refreshes' CSR table at 7 nonzeros a row read
 * 23.6-30.2 GB/s, so the cycles that fit it went from 0.2 (the slowest
 * table) to 1.1 (the fastest): the jumps look bound by something the
 * table does not move with (the x stream's latency, not measured here).
 * zen4-epyc.json takes 0.5, the least mean over the six of the worst
 * error of the four matrices over the L3 (18.3% -> 12.3%; the Laplacian
 * -4.5..-27.9% -> -15.4..+9.4%, FEM with 2 dofs +3..+4 points).
 */
static double jump_cycles(const struct machine *m,
			  const struct model_prediction *out,
			  double footprint)
{
	if (!(m->mem_stream_jump_cycles > 0) || !m->transfers_overlap)
		return 0;
	return out->stream_jumps * m->mem_stream_jump_cycles *
	       from_memory_phase(m, footprint);
}

/*
 * Late lines (notes): a loop without irregular data whose vector loads
 * cross lines, its regular lines from a level with a late_line_cycles
 * (memory's after the last level), runs no faster than its schedule with
 * every load taking that many cycles.  Origins without the key keep the
 * loop's own schedule; the run's figure is the mean of the two weighted
 * by the regular lines each origin fills (write-backs are no wait).
 * out->late_cycles stays 0 where none of it applies.
 */
static int late_lines(const struct machine *m, const struct dag_core *core,
		      const struct model_work *w,
		      struct model_prediction *out, struct ppr_err *err)
{
	double total = 0, late = 0, sum = 0, fill[MODEL_MAX_LEVELS + 1];
	unsigned o, i;

	out->late_share = out->late_cycles = 0;
	if (!core || !out->dag.res.split_loads_x1000)
		return 0;
	for (i = 0; i < out->nlevels; i++)
		if (out->lev[i].misses_irregular)
			return 0;
	/* the regular lines filled from each origin, write-backs apart */
	for (o = 1; o <= out->nlevels; o++) {
		fill[o] = out->lev[o - 1].bytes_regular -
			  (o < out->nlevels ? out->lev[o].bytes_regular : 0);
		if (fill[o] < 0)
			fill[o] = 0;
		total += fill[o];
	}
	if (!(total > 0))
		return 0;
	for (o = 1; o <= out->nlevels; o++) {
		double lat = o < out->nlevels ? m->level[o].late_line_cycles :
			     m->mem_late_line_cycles;
		double share = fill[o] / total;
		struct dag_core c = *core;
		struct model_kernel_dag d;
		int rc;

		if (!(lat > 0) || !(share > 0))
			continue;
		if (lat > c.load_lat_gpr)
			c.load_lat_gpr = (unsigned)lround(lat);
		if (lat > c.load_lat_vec)
			c.load_lat_vec = (unsigned)lround(lat);
		rc = model_kernel_dag(out->symbol, &c, w, &d, err);
		if (rc)
			return rc;
		late += share * d.cycles;
		sum += share;
	}
	if (!(sum > 0))
		return 0;
	out->late_share = sum;
	out->late_cycles = late + (1 - sum) * out->dag.cycles;
	return 0;
}

/*
 * Far references.  A prefetcher finds an irregular reference whose line is
 * next to one the kernel touched shortly before (FEM-ordered x: the columns
 * of a row lie near those of the previous rows); nothing finds a line
 * far from all of them (random columns).  A reference is "near" when its
 * line is within MODEL_FAR_DIST lines of one of the last MODEL_FAR_RING
 * distinct irregular lines, else "far".  Measured (model/README.md, 2026-11-25):
 * the SpMV errors barely move for distances 1..8 and rings of 16..64 lines;
 * distance 0 (only the same line) or a ring of 4 takes the median from 8-9%
 * to 10%.  Far references go through the simulator one at a time, so that
 * the levels they miss are known; the rest go in batches.
 */
struct far_sink {
	struct sim_hier *h;
	unsigned n, lvl[MODEL_MAX_LEVELS];
	unsigned shift, pos;
	uint64_t ring[MODEL_FAR_RING];
	uint64_t misses[MODEL_MAX_LEVELS];  /* far references missing level i */
	uint64_t jumps;   /* near references not next to the previous one */
};

static uint64_t irr_misses(const struct sim_hier *h, unsigned lvl)
{
	const struct sim_level_stats *s = sim_hier_level_stats(h, lvl);
	uint64_t t = 0;
	unsigned op;

	for (op = 0; op < PPR_NOPS; op++)
		t += s->misses[op][PPR_TAG_IRREGULAR];
	return t;
}

static int far_emit(void *ctx, const struct ppr_access *a, size_t n)
{
	struct far_sink *r = ctx;
	size_t i, start = 0;

	for (i = 0; i < n; i++) {
		uint64_t line, prev, b[MODEL_MAX_LEVELS];
		unsigned k, near = 0, l;

		if (a[i].tag != PPR_TAG_IRREGULAR)
			continue;
		line = a[i].addr >> r->shift;
		for (k = 0; k < MODEL_FAR_RING; k++)
			near |= line - r->ring[k] + MODEL_FAR_DIST <= 2 * MODEL_FAR_DIST;
		prev = r->ring[(r->pos + MODEL_FAR_RING - 1) % MODEL_FAR_RING];
		if (near && line - prev + MODEL_JUMP_DIST >
			    2 * MODEL_JUMP_DIST)
			r->jumps++;
		if (prev != line) {
			r->ring[r->pos] = line;
			r->pos = (r->pos + 1) % MODEL_FAR_RING;
		}
		if (near)
			continue;
		if (i > start)
			sim_hier_access_batch(r->h, a + start, i - start);
		for (l = 0; l < r->n; l++)
			b[l] = irr_misses(r->h, r->lvl[l]);
		sim_hier_access(r->h, &a[i]);
		for (l = 0; l < r->n; l++)
			r->misses[l] += irr_misses(r->h, r->lvl[l]) - b[l];
		start = i + 1;
	}
	if (n > start)
		sim_hier_access_batch(r->h, a + start, n - start);
	return 0;
}

int model_predict_run(const struct machine *m, struct kernel_run *run,
		      const struct kernel_params *p,
		      const struct model_predict_opts *o,
		      struct model_prediction *out, struct ppr_err *err)
{
	struct sim_level_stats before[SIM_MAX_LEVELS + 1];
	struct sim_hier *h;
	struct ppr_sink sink;
	struct far_sink fs;
	uint64_t far_before[MODEL_MAX_LEVELS], jumps_before = 0;
	struct model_work w = { 0 };
	double bw[SIM_MAX_LEVELS];
	unsigned n, i, line;
	struct csr a;
	struct dag_core kcore;
	int csr = !strcmp(p->kernel, "spmv-csr");
	double row_nnz = 0, wb_share;
	int rc;

	memset(out, 0, sizeof(*out));
	snprintf(out->describe, sizeof(out->describe), "%s",
		 kernel_run_describe(run));
	snprintf(out->symbol, sizeof(out->symbol), "%s",
		 kernel_run_symbol(run));
	out->flops = kernel_run_flops(run);
	out->clock_ghz = m->clock_ghz;

	out->cold = o && o->cold;

	/* in-core: the loop's schedule */
	w.total_flops = out->flops;
	if (is_spmv(p))
		spmv_work(run, p, &w);
	else if (!strcmp(p->kernel, "conv1d"))
		w.inner_trips = CONV_KLEN; /* taps, when the loop is nested */

	/* SpMV: the matrix again (kernels.h keeps its own) for its row
	 * lengths: CSR's pairs per row, and the loop exits that change */
	memset(&a, 0, sizeof(a));
	if (is_spmv(p) && p->input &&
	    matrix_load(p->input, &a, NULL, NULL) == 0) {
		if (csr)
			csr_pairs(&a, &w);
		double hist[MODEL_EXIT_TMAX + 1];

		out->rows = (double)a.rows;
		row_nnz = a.rows ? (double)a.nnz / (double)a.rows : 0;
		/* BCSR: block rows whose block count changes, learned by
		 * warm runs as CSR's exits are */
		if (!csr)
			out->branch_events = model_spmv_length_hist(&a,
				p->block_r, p->block_c, hist);
		else
			out->branch_events = model_spmv_csr_exit_changes(&a,
				&out->branches, hist);
		if (csr && m->exit_history_rows > 0)
			out->branch_contexts = model_spmv_csr_exit_contexts(&a,
				(unsigned)m->exit_history_rows, NULL);
		else if (m->exit_history_rows > 0)
			out->branch_contexts = out->branch_events *
				model_exit_fill_ratio(m, &a);
		if (out->branch_contexts < 0)
			out->branch_contexts = 0;
		out->branch_misses = model_exit_unlearned_fill(hist,
			out->branch_contexts,
			csr ? m->learned_exit_changes :
			      model_bcsr_learned_exits(m),
			m->learned_exit_trips,
			csr ? m->csr_unlearned_exponent : 1,
			csr ? m->csr_unlearned_max : 1, out->cold);
		matrix_csr_release(&a);
	}
	/* the kernel's core: a BCSR kernel's in its bcsr_window, as
	 * `ppr bcsr` schedules it (model_bcsr_core) */
	if (is_spmv(p) && !csr)
		model_bcsr_core(model_machine_core(m), &kcore);
	else
		kcore = *model_machine_core(m);
	rc = model_kernel_dag(out->symbol, &kcore, &w,
			      &out->dag, err);
	if (rc)
		return rc;

	/* data transfer: the simulator, cold */
	h = sim_hier_new(&m->hier, err);
	if (!h)
		return err && err->code ? err->code : PPR_ENOMEM;
	memset(&fs, 0, sizeof(fs));
	fs.h = h;
	while ((1u << fs.shift) < m->hier.levels[0].line_size)
		fs.shift++;
	fs.n = m->hier.nlevels < MODEL_MAX_LEVELS ? m->hier.nlevels :
	       MODEL_MAX_LEVELS;
	for (i = 0; i < fs.n; i++)
		fs.lvl[i] = (i == 0 || !m->hier.split_l1) ? i : i + 1;
	for (i = 0; i < MODEL_FAR_RING; i++)
		fs.ring[i] = UINT64_MAX / 2;   /* far from every line */
	sink.emit = far_emit;
	sink.ctx = &fs;
	memset(before, 0, sizeof(before));
	memset(far_before, 0, sizeof(far_before));
	kernel_run_reset(run);
	rc = kernel_run_instrumented(run, &sink);
	kernel_run_reset(run);
	if (!rc && !out->cold) {
		/* warm: count only a second execution */
		for (i = 0; i < sim_hier_level_count(h) &&
			    i <= SIM_MAX_LEVELS; i++)
			before[i] = *sim_hier_level_stats(h, i);
		memcpy(far_before, fs.misses, sizeof(far_before));
		jumps_before = fs.jumps;
		rc = kernel_run_instrumented(run, &sink);
		kernel_run_reset(run);
	}
	if (rc) {
		sim_hier_free(h);
		return ppr_err_set(err, rc, NULL, 0, 0,
				   "simulating %s failed", out->describe);
	}
	out->stream_jumps = (double)(fs.jumps - jumps_before);
	n = m->hier.nlevels;
	if (n > MODEL_MAX_LEVELS)
		n = MODEL_MAX_LEVELS;
	out->nlevels = n;
	machine_fill_bandwidths(m, bw);
	/* CSR from memory: the bandwidth its streams get at its row length
	 * (memory.csr_bandwidth_gbs; notes).  That table is the CSR
	 * kernel's own, its stores included: its write-backs count whole,
	 * as before memory.writeback_share (notes) */
	wb_share = m->mem_writeback_share;
	if (csr && row_nnz > 0 && m->csr_bw_points && n && m->clock_ghz > 0) {
		bw[n - 1] = machine_csr_bandwidth(m, row_nnz) / m->clock_ghz;
		out->csr_row_nnz = row_nnz;
		wb_share = 1;
	}
	line = m->hier.levels[0].line_size;
	{
		double reg_fill[MODEL_MAX_LEVELS + 1] = { 0 };
		double origin[MODEL_MAX_LEVELS + 1] = { 0 };
		unsigned lvl;

		/*
		 * Traffic per level comes from the simulator's fills
		 * (bytes_from_below), which count demand fills AND prefetch
		 * fills: a line an L2 next-line prefetch brings from memory
		 * never misses on demand anywhere, yet it crosses every link
		 * below L2.  Fills of irregular data are its demand misses
		 * (prefetches are triggered by regular accesses only); the
		 * rest of the fills are regular data.
		 */
		for (i = 0; i < n; i++) {
			struct sim_level_stats sd;
			const struct sim_level_stats *s = &sd;
			const struct sim_level_config *lc;
			struct model_level_traffic *t = &out->lev[i];
			double fills, irr;

			lvl = (i == 0 || !m->hier.split_l1) ? i : i + 1;
			sd = *sim_hier_level_stats(h, lvl);
			stats_sub(&sd, &before[lvl]);
			lc = sim_hier_level_config(h, lvl);
			snprintf(t->name, sizeof(t->name), "%s", lc->name);
			t->misses_regular = sim_stat_tag(s->misses,
							 PPR_TAG_REGULAR);
			t->misses_irregular = sim_stat_tag(s->misses,
							   PPR_TAG_IRREGULAR);
			t->writebacks = s->writebacks;
			t->prefetches = s->prefetches_issued;
			t->misses_far = fs.misses[i] - far_before[i];
			fills = (double)s->bytes_from_below;
			/*
			 * An exclusive (victim) level is filled only by
			 * evictions from above: a line that misses it goes
			 * from memory straight to the level above, and the
			 * level's own fills stay 0.  Those lines still come
			 * from below it (memory), so they count as its
			 * fills here.
			 */
			if (lc->inclusion == SIM_INCL_EXCLUSIVE)
				fills += (double)(t->misses_regular +
						  t->misses_irregular) * line;
			irr = (double)t->misses_irregular * line;
			if (irr > fills)
				irr = fills;
			t->bytes_irregular = irr;
			t->bytes_regular = fills - irr;
			t->bytes_total = fills + (double)s->bytes_to_below;
			reg_fill[i] = t->bytes_regular;
		}
		/*
		 * Origin of regular data: what came into level i from below
		 * and did not come into level i+1 from further below was
		 * resident in level i+1; what came into the last level came
		 * from memory.  Write-backs go to the level below.
		 */
		for (i = 0; i < n; i++) {
			double from_below = i + 1 < n ?
				reg_fill[i] - reg_fill[i + 1] : reg_fill[i];

			if (from_below < 0)
				from_below = 0;
			origin[i + 1] += from_below;
			/* the writeback_share of the level they go to, or
			 * memory's (notes) */
			origin[i + 1] += (double)out->lev[i].writebacks * line *
					 (i + 1 < n ?
					  m->level[i + 1].writeback_share :
					  wb_share);
		}
		for (i = 0; i <= n; i++)
			out->ppr_in.regular_by_origin[i] = origin[i];
	}
	sim_hier_free(h);

	/* PPR */
	out->ppr_in.flops = out->flops;
	out->ppr_in.compute_cycles = out->dag.compute_cycles;
	/* fills on the loads (notes): each line filled into the first level
	 * takes its fill_load_cycles from the loads that read it */
	out->fill_lines = n && line ? out->lev[0].bytes_regular / line : 0;
	out->fill_cycles = out->fill_lines * m->level[0].fill_load_cycles;
	out->fill_port_cycles = 0;
	out->ppr_in.memory_cycles = out->dag.memory_cycles;
	if (out->fill_cycles > 0) {
		const struct dag_core *fc = model_machine_core(m);
		double pl = 0;
		unsigned q;

		for (q = 0; fc && q < fc->nports && q < DAG_MAX_PORTS; q++)
			if ((fc->load_ports >> q & 1u) &&
			    out->dag.res.port_pressure[q] > pl)
				pl = out->dag.res.port_pressure[q];
		if (out->dag.res.memory_cycles > 0)
			out->fill_port_cycles = out->dag.memory_cycles *
				fmin(1, pl / out->dag.res.memory_cycles);
		out->ppr_in.memory_cycles = fmax(out->dag.memory_cycles,
			out->fill_port_cycles + out->fill_cycles);
	}
	/* the whole loop's schedule bounds the time from below, as in the
	 * BCSR selection: on Zen 4 (5.5 dispatched per cycle, 4 ALUs)
	 * CSR's row loop is bound by dispatch, which neither half of eq.
	 * (1) sees (bench/
	 * predict_spmv.sh, 2026-11-26: median |error| 16.0% -> 10.5% with
	 * this bound alone; on zen4-epyc.json no prediction of the 39
	 * medium matrices changes) */
	out->ppr_in.core_cycles = fmax(out->dag.acc_chain_cycles,
				       out->dag.cycles);
	rc = late_lines(m, &kcore, &w, out, err);
	if (rc)
		return rc;
	out->ppr_in.late_cycles = out->late_cycles;
	out->ppr_in.stall_cycles = out->branch_misses *
				    m->loop_exit_miss_cycles;
	out->ppr_in.overlap = m->transfers_overlap;
	out->ppr_in.nlevels = n;
	out->ppr_in.line_size = line;
	out->ppr_in.clock_ghz = m->clock_ghz;
	for (i = 0; i < n; i++) {
		out->ppr_in.bw[i] = bw[i];
		out->ppr_in.irregular_misses[i] =
			(double)out->lev[i].misses_irregular;
		out->ppr_in.far_misses[i] = (double)out->lev[i].misses_far;
		out->ppr_in.far_cost[i] = model_far_cost(m, i, n);
		out->bw_gbs[i] = bw[i] * m->clock_ghz;
	}
	out->ppr_in.stream_serial = is_spmv(p) ? stream_serial(m, out,
		(double)kernel_run_footprint(run)) : 0;
	out->ppr_in.jump_cycles = is_spmv(p) ? jump_cycles(m, out,
		(double)kernel_run_footprint(run)) : 0;
	rc = model_ppr_eval(&out->ppr_in, &out->ppr, err);
	if (rc)
		return rc;

	/* ECM */
	out->ecm_in.flops = out->flops;
	out->ecm_in.t_ol = out->dag.compute_cycles;
	out->ecm_in.t_nol = out->dag.memory_cycles;
	out->ecm_in.nlevels = n;
	out->ecm_in.clock_ghz = m->clock_ghz;
	for (i = 0; i < n; i++) {
		out->ecm_in.bytes[i] = out->lev[i].bytes_total;
		out->ecm_in.bw[i] = bw[i];
	}
	rc = model_ecm_eval(&out->ecm_in, &out->ecm, err);
	if (rc)
		return rc;

	/* Roofline */
	out->roof_in.flops = out->flops;
	out->roof_in.peak_gflops = m->clock_ghz *
		(p->kernel && !strcmp(p->kernel, "conv1d") ?
		 m->flops_per_cycle_sp : m->flops_per_cycle_dp);
	if (!(out->roof_in.peak_gflops > 0))
		out->roof_in.peak_gflops = m->clock_ghz * 16;
	out->roof_in.nlevels = n;
	for (i = 0; i < n; i++) {
		out->roof_in.bytes[i] = out->lev[i].bytes_total;
		out->roof_in.bw_gbs[i] = out->bw_gbs[i];
	}
	return model_roofline_eval(&out->roof_in, &out->roof, err);
}

int model_predict(const struct machine *m, const struct kernel_params *p,
		  const struct model_predict_opts *o,
		  struct model_prediction *out, struct ppr_err *err)
{
	struct kernel_run *run = NULL;
	int rc;

	rc = kernel_run_new(p, &run, err);
	if (rc)
		return rc;
	rc = model_predict_run(m, run, p, o, out, err);
	kernel_run_free(run);
	return rc;
}
