/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The list of zbewalgo steps, the one place a step is named.  Everything
 * that enumerates steps is made from it: the ids and the declarations
 * (zbewalgo_internal.h), the registry (steps.c) and the table aliases
 * (table.c); tools and tests outside the kernel read it too.  The step
 * table of Documentation/staging/zbewalgo.rst lists the same ids: they
 * are part of the page format.
 *
 * It has no include guard: define ZBW_STEP(NAME, name, id, set), include
 * this file, undefine ZBW_STEP.  One line per step, in id order from 1
 * with no gaps: NAME is the suffix of the step's id constant
 * ZBEWALGO_STEP_<NAME> and of its struct zbewalgo_step
 * zbewalgo_step_<NAME>, name its name in combination tables, id the stable
 * id written into compressed pages (never renumber or reuse one), set
 * "core" for the steps every build has and "classic" for the 2018
 * design's, which the kernel builds with CONFIG_ZBEWALGO_CLASSIC_STEPS
 * only.  NAME comes first so that a user of the list that needs only it
 * can take the rest as "...".
 */
ZBW_STEP(BWT, bwt, 1, classic)
ZBW_STEP(MTF, mtf, 2, classic)
ZBW_STEP(JBE, jbe, 3, classic)
ZBW_STEP(JBE2, jbe2, 4, classic)
ZBW_STEP(RLE, rle, 5, classic)
ZBW_STEP(HUFFMAN, huffman, 6, classic)
ZBW_STEP(BEWALGO, bewalgo, 7, classic)
ZBW_STEP(BEWALGO2, bewalgo2, 8, classic)
ZBW_STEP(BITSHUFFLE4, bitshuffle4, 9, core)
ZBW_STEP(BITSHUFFLE8, bitshuffle8, 10, core)
ZBW_STEP(LZ, lz, 11, classic)
ZBW_STEP(DELTA4, delta4, 12, core)
ZBW_STEP(DELTA8, delta8, 13, core)
ZBW_STEP(SIEVE4, sieve4, 14, classic)
ZBW_STEP(HUFFMAN4, huffman4, 15, classic)
ZBW_STEP(ZSTD, zstd, 16, core)
ZBW_STEP(DELTA2, delta2, 17, core)
ZBW_STEP(BITSHUFFLE2, bitshuffle2, 18, core)
ZBW_STEP(NUM2, num2, 19, core)
ZBW_STEP(NUM4, num4, 20, core)
ZBW_STEP(NUM8, num8, 21, core)
