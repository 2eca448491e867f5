/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The list of zbewalgo steps, the one place a step is named.  Everything
 * that enumerates steps is made from it: the ids and the declarations
 * (zbewalgo_internal.h), the registry (steps.c), the table aliases
 * (table.c) and the fuzz harnesses (fuzz/Makefile); make docs checks the
 * format document's step table against it.
 *
 * It has no include guard: define ZBW_STEP(id, name, NAME), include this
 * file, undefine ZBW_STEP.  One line per step, in id order from 1 with no
 * gaps: id is the stable id written into compressed pages (never
 * renumber or reuse one), name the step's name in combination tables and
 * the suffix of its struct zbewalgo_step zbewalgo_step_<name>, NAME the
 * suffix of its id's constant ZBEWALGO_STEP_<NAME>.
 */
ZBW_STEP(1, bwt, BWT)
ZBW_STEP(2, mtf, MTF)
ZBW_STEP(3, jbe, JBE)
ZBW_STEP(4, jbe2, JBE2)
ZBW_STEP(5, rle, RLE)
ZBW_STEP(6, huffman, HUFFMAN)
ZBW_STEP(7, bewalgo, BEWALGO)
ZBW_STEP(8, bewalgo2, BEWALGO2)
ZBW_STEP(9, bitshuffle4, BITSHUFFLE4)
ZBW_STEP(10, bitshuffle8, BITSHUFFLE8)
ZBW_STEP(11, lz, LZ)
ZBW_STEP(12, delta4, DELTA4)
ZBW_STEP(13, delta8, DELTA8)
ZBW_STEP(14, sieve4, SIEVE4)
ZBW_STEP(15, huffman4, HUFFMAN4)
