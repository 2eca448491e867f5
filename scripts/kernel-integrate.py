#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Add zbewalgo to a Linux source tree (6.1, 6.12 or 7.2).

usage: kernel-integrate.py [--upstream] [--only STAGE[,STAGE...]]
                           [--maintainer 'NAME <MAIL>'] REPO TREE

Copies this repository's kernel files into TREE and hooks them into the
Kconfig and Makefile files next to lz4, and, on kernels whose zram has
compiled-in backends (6.12+), adds the zram backend.  Every edit is
anchored on a line that exists in all three generations and is done at
most once, so running it twice changes nothing.  The booted-kernel tests
and the patch series both use it, so they cannot drift apart.

The edits come in stages, one per patch of the upstream series: lib (the
core, its header and KUnit tests, without the tuning plane and the
classic steps), crypto (scomp glue, testmgr vectors), zram (the backend:
level= and dict=), zram-keys (zram's parser for the zbewalgo.* keys of
algorithm_params, in struct zcomp_params' union), tuning
(/sys/kernel/zbewalgo and the backend's keys behind
CONFIG_ZBEWALGO_TUNING), classic (the 2018
design's steps behind CONFIG_ZBEWALGO_CLASSIC_STEPS) and docs; lib and
zram leave out the optional parts' files, options and the code under
them, which their stages add.  Two
more stages are no part of the series, as 7.2 needs neither: zram-retry,
on trees whose zram still compresses a page again after its sleeping
allocation (6.12), makes zram allocate again when the second result's
length differs from the first; zram-busy makes 6.12 refuse
algorithm_params on an initialised device, as 7.2 does.  --only
runs the named stages; without it all run.  --upstream makes the series' form: version-conditional code reduced
to TREE's kernel with unifdef (no -D flags in Makefiles), a MAINTAINERS
entry that grows with each stage (--maintainer names its M: line), and
the documents added to their indexes.  The default stays the tree the
booted-kernel tests build.
"""
import os
import re
import shutil
import subprocess
import sys

DOCS = [
    'Documentation/staging/zbewalgo.rst',
    'Documentation/ABI/testing/sysfs-kernel-zbewalgo',
]
# Only in the series (and only once the repository has it).
UPSTREAM_DOCS = [
    'Documentation/admin-guide/blockdev/zbewalgo.rst',
]
ZRAM_FILES = [
    'drivers/block/zram/backend_zbewalgo.c',
    'drivers/block/zram/backend_zbewalgo.h',
]

CRYPTO_KCONFIG = 'crypto/Kconfig.zbewalgo'
ZRAM_KCONFIG = 'drivers/block/zram/Kconfig.zbewalgo'
TESTMGR_VECTORS = 'crypto/testmgr-zbewalgo.h'


def fragment(repo, rel):
    """The text of a fragment file after its leading comment: the '#'
    lines of a Kconfig file, the SPDX line and first comment of a C one."""
    with open(os.path.join(repo, rel)) as f:
        lines = f.read().splitlines(keepends=True)
    if rel.endswith('.h'):
        end = next(i for i, l in enumerate(lines) if l.startswith(' */'))
        return ''.join(lines[end + 1:])
    while lines and lines[0].startswith('#'):
        lines.pop(0)
    return ''.join(lines)


def kconfig_entries(repo, rel):
    """The config entries of a Kconfig fragment by symbol, each with the
    blank line that follows it in the tree."""
    entries = {}
    for block in re.split(r'(?m)^(?=config )', fragment(repo, rel)):
        if block.strip():
            name = block.split()[1]
            entries[name] = block.rstrip('\n') + '\n\n'
    return entries


class Tree:
    def __init__(self, root):
        self.root = root

    def path(self, rel):
        return os.path.join(self.root, rel)

    def read(self, rel):
        with open(self.path(rel)) as f:
            return f.read()

    def write(self, rel, text):
        # Replace rather than write through: the tree may be a hard-link copy.
        if os.path.exists(self.path(rel)):
            os.unlink(self.path(rel))
        os.makedirs(os.path.dirname(self.path(rel)), exist_ok=True)
        with open(self.path(rel), 'w') as f:
            f.write(text)

    def insert(self, rel, anchor, text, after=True, marker=None):
        """Insert text after (or before) the first line equal to anchor."""
        s = self.read(rel)
        if (marker or text.strip().splitlines()[0]) in s:
            return
        lines = s.splitlines(keepends=True)
        for i, line in enumerate(lines):
            if line.rstrip('\n') == anchor:
                lines.insert(i + 1 if after else i, text)
                self.write(rel, ''.join(lines))
                return
        sys.exit('%s: anchor not found: %r' % (rel, anchor))

    def replace(self, rel, old, new):
        s = self.read(rel)
        if new in s:
            return
        if old not in s:
            sys.exit('%s: text not found: %r' % (rel, old))
        self.write(rel, s.replace(old, new, 1))


def copy(repo, tree, rel, defines=None):
    """Copy REPO/rel to TREE/rel; with defines (a dict of macro: bool)
    reduce the #if's on those macros with unifdef."""
    dst = tree.path(rel)
    os.makedirs(os.path.dirname(dst), exist_ok=True)
    # Replace rather than write through: the tree may be a hard-link copy.
    if os.path.exists(dst):
        os.unlink(dst)
    if not defines:
        shutil.copyfile(os.path.join(repo, rel), dst)
        return
    args = ['unifdef', '-o', dst, os.path.join(repo, rel)]
    args[1:1] = [('-D' if on else '-U') + m for m, on in defines.items()]
    try:
        # Exit status: 0 unchanged, 1 changed, 2 trouble.
        if subprocess.call(args) > 1:
            sys.exit('unifdef failed on %s' % rel)
    except FileNotFoundError:
        sys.exit('unifdef not found (Debian package unifdef)')
    # A removed block leaves its neighbours' blank lines: keep one.
    with open(dst) as f:
        text = re.sub(r'\n{3,}', '\n\n', f.read())
    with open(dst, 'w') as f:
        f.write(text)


TESTMGR_ENTRY = '''\t\t.alg = "zbewalgo",
\t\t.test = alg_test_comp,
\t\t.suite = {
\t\t\t.comp = {
\t\t\t\t.comp = __VECS(zbewalgo_comp_tv_template),
\t\t\t\t.decomp = __VECS(zbewalgo_decomp_tv_template)
\t\t\t}
\t\t}
\t}, {
'''


def add_testmgr(repo, tree):
    """Vectors into testmgr.h, an entry into alg_test_descs[] (sorted)."""
    tree.insert('crypto/testmgr.h', '#endif\t/* _CRYPTO_TESTMGR_H */',
                fragment(repo, TESTMGR_VECTORS).rstrip('\n') + '\n\n',
                after=False, marker='zbewalgo_comp_tv_template')
    s = tree.read('crypto/testmgr.c')
    if '.alg = "zbewalgo"' in s:
        return
    lines = s.splitlines(keepends=True)
    # The first entry whose name sorts after ours ("zlib-deflate", "zstd").
    for i, line in enumerate(lines):
        m = re.match(r'\t\t\.alg = "([^"]*)",$', line.rstrip('\n'))
        if m and m.group(1) > 'zbewalgo':
            lines.insert(i, TESTMGR_ENTRY)
            tree.write('crypto/testmgr.c', ''.join(lines))
            return
    sys.exit('crypto/testmgr.c: no alg_test_descs entry after zbewalgo')


MAINTAINERS_TITLE = 'ZBEWALGO PAGE COMPRESSION'
DEFAULT_MAINTAINER = 'zbewalgo developers <zbewalgo@example.org>'


def add_maintainers(tree, patterns, maintainer):
    """The MAINTAINERS entry, made by the first stage that needs it; every
    stage lists its own files, in checkpatch's (byte-wise) order."""
    lines = tree.read('MAINTAINERS').splitlines(keepends=True)
    head = MAINTAINERS_TITLE + '\n'
    if head not in lines:
        entry = [head, 'M:\t%s\n' % maintainer,
                 'L:\tlinux-crypto@vger.kernel.org\n',
                 'L:\tlinux-mm@kvack.org\n', 'S:\tMaintained\n', '\n']
        # Entries are sorted by title (ignoring case): before the first that
        # sorts after ours.
        start = lines.index('Maintainers List\n')
        for i in range(start, len(lines) - 1):
            if (lines[i - 1] == '\n' and re.match(r'[A-Z]:\t', lines[i + 1])
                    and lines[i].rstrip('\n').upper() > MAINTAINERS_TITLE):
                lines[i:i] = entry
                break
        else:
            sys.exit('MAINTAINERS: no entry after %s' % MAINTAINERS_TITLE)
    first = lines.index(head) + 1
    end = lines.index('\n', first)
    files = [l[3:-1] for l in lines[first:end] if l.startswith('F:\t')]
    files = sorted(set(files) | set(patterns))
    body = [l for l in lines[first:end] if not l.startswith(('F:\t', 'N:\t'))]
    body += ['F:\t%s\n' % f for f in files] + ['N:\tzbewalgo\n']
    lines[first:end] = body
    tree.write('MAINTAINERS', ''.join(lines))


def add_toctree(tree, rel, name):
    """Add name to the (sorted) first toctree of the index rel."""
    lines = tree.read(rel).splitlines(keepends=True)
    if '   %s\n' % name in lines:
        return
    i = lines.index('.. toctree::\n') + 1
    while lines[i].strip().startswith(':') or not lines[i].strip():
        i += 1
    while (i < len(lines) and lines[i].startswith('   ')
           and lines[i].strip() < name):
        i += 1
    lines.insert(i, '   %s\n' % name)
    tree.write(rel, ''.join(lines))


CLASSIC = 'CONFIG_ZBEWALGO_CLASSIC_STEPS'
TUNING = 'CONFIG_ZBEWALGO_TUNING'
LIB = 'lib/zbewalgo'


def lib_makefile(text, classic, tuning):
    """lib/zbewalgo/Makefile without the parts the series has not come
    to: unless classic, without the classic steps, and unless tuning,
    without the tuning plane (the blocks that list them and the lines
    that build them)."""
    drop = (([] if classic else ['ZBEWALGO_CLASSIC :=']) +
            ([] if tuning else ['ZBEWALGO_TUNING :=']))
    blocks = [b for b in text.split('\n\n') if not any(d in b for d in drop)]
    text = '\n'.join(l for l in '\n\n'.join(blocks).split('\n')
                     if (tuning or TUNING not in l) and
                     (classic or CLASSIC not in l))
    if (not tuning and 'TUNING' in text) or (not classic and 'CLASSIC' in text):
        sys.exit('lib/zbewalgo/Makefile: an option left that this stage '
                 'does not add')
    for var in ('ZBEWALGO_KERNEL :=', 'ZBEWALGO_CORE :=', 'libzbewalgo-y :='):
        if var not in text:
            sys.exit('lib/zbewalgo/Makefile: no %s in the stage' % var)
    return text


def copy_lib(repo, tree, classic, tuning):
    """lib/zbewalgo and its tests as far as the series has come: the
    classic steps (classic/) and the tuning plane (tuning/) each with its
    option, or neither (their folders, Kconfig entries, Makefile lines
    and the code under them left out)."""
    defines = {}
    if not classic:
        defines[CLASSIC] = False
    if not tuning:
        defines[TUNING] = False
    subs = ['', 'core/'] + (['classic/'] if classic else []) + \
        (['tuning/'] if tuning else []) + ['tests/']
    for sub in subs:
        for name in sorted(os.listdir(os.path.join(repo, LIB, sub or '.'))):
            rel = LIB + '/' + sub + name
            if os.path.isdir(os.path.join(repo, rel)):
                continue
            if name.endswith(('.c', '.h')):
                copy(repo, tree, rel, defines)
            elif name == 'Makefile' and not sub:
                with open(os.path.join(repo, rel)) as f:
                    tree.write(rel, lib_makefile(f.read(), classic, tuning))
            elif name == 'Kconfig':
                with open(os.path.join(repo, rel)) as f:
                    text = f.read()
                entries = kconfig_entries(repo, rel)
                for sym, on in (('ZBEWALGO_CLASSIC_STEPS', classic),
                                ('ZBEWALGO_TUNING', tuning)):
                    if sym not in entries or entries[sym] not in text:
                        sys.exit('%s: no %s entry' % (rel, sym))
                    if not on:
                        text = text.replace(entries[sym], '')
                tree.write(rel, text)
            elif name == '.kunitconfig':
                with open(os.path.join(repo, rel)) as f:
                    tree.write(rel, ''.join(
                        l for l in f if (classic or CLASSIC not in l) and
                        (tuning or TUNING not in l)))
            elif name == 'Makefile':
                copy(repo, tree, rel)


def stage_lib(repo, tree, up):
    """The core, include/linux/zbewalgo.h and the KUnit tests, without the
    classic steps (stage_classic) and the tuning plane (stage_tuning)."""
    copy_lib(repo, tree, classic=False, tuning=False)
    copy(repo, tree, 'include/linux/zbewalgo.h')
    tree.insert('lib/Kconfig', 'source "lib/xz/Kconfig"',
                '\nsource "lib/zbewalgo/Kconfig"\n')
    tree.insert('lib/Makefile', 'obj-$(CONFIG_XZ_DEC) += xz/',
                'obj-$(CONFIG_ZBEWALGO) += zbewalgo/\n')
    if up:
        add_maintainers(tree, ['include/linux/zbewalgo.h', 'lib/zbewalgo/'],
                        up)


def stage_crypto(repo, tree, up):
    """The scomp algorithm, its Kconfig/Makefile lines, testmgr vectors."""
    streams = 'crypto_acomp_streams' in tree.read(
        'include/crypto/internal/acompress.h')
    if up:
        # Only this kernel's code path: no legacy comp type, no -D flag.
        legacy = re.search(r'#define\s+CRYPTO_ALG_TYPE_COMPRESS\b',
                           tree.read('include/linux/crypto.h'))
        copy(repo, tree, 'crypto/zbewalgo.c',
             {'ZBEWALGO_SCOMP_STREAMS': streams,
              'CRYPTO_ALG_TYPE_COMPRESS': bool(legacy)})
    else:
        copy(repo, tree, 'crypto/zbewalgo.c')
    tree.insert('crypto/Kconfig', 'config CRYPTO_LZ4HC',
                kconfig_entries(repo, CRYPTO_KCONFIG)['CRYPTO_ZBEWALGO'],
                after=False)
    makefile = 'obj-$(CONFIG_CRYPTO_ZBEWALGO) += zbewalgo.o\n'
    if streams and not up:
        makefile += 'CFLAGS_zbewalgo.o += -DZBEWALGO_SCOMP_STREAMS\n'
    tree.insert('crypto/Makefile', 'obj-$(CONFIG_CRYPTO_LZ4) += lz4.o',
                makefile, marker='CONFIG_CRYPTO_ZBEWALGO')
    add_testmgr(repo, tree)
    if up:
        add_maintainers(tree, ['crypto/zbewalgo.c'], up)


def zram_defines(tree, up, tuning):
    """unifdef's macros for the backend: the tuning plane's keys or not,
    and in the series' form only this kernel's name for zram's "no level
    given"."""
    defines = {} if tuning else {TUNING: False}
    if up:
        defines['ZCOMP_PARAM_NOT_SET'] = 'ZCOMP_PARAM_NOT_SET' in tree.read(
            'drivers/block/zram/zcomp.h')
    return defines


def stage_zram(repo, tree, up):
    """The zram backend (6.12+; 6.1's zram allocates through the crypto
    API)."""
    zram = 'drivers/block/zram/'
    if 'config ZRAM_BACKEND_LZ4\n' not in tree.read(zram + 'Kconfig'):
        return
    for rel in ZRAM_FILES:
        copy(repo, tree, rel, zram_defines(tree, up, tuning=False))
    kconfig = kconfig_entries(repo, ZRAM_KCONFIG)
    tree.insert(zram + 'Kconfig', 'config ZRAM_BACKEND_FORCE_LZO',
                kconfig['ZRAM_BACKEND_ZBEWALGO'], after=False)
    tree.replace(zram + 'Kconfig', '\t\t!ZRAM_BACKEND_842\n',
                 '\t\t!ZRAM_BACKEND_842 && !ZRAM_BACKEND_ZBEWALGO\n')
    tree.insert(zram + 'Kconfig', 'endchoice',
                kconfig['ZRAM_DEF_COMP_ZBEWALGO'], after=False)
    tree.insert(zram + 'Kconfig',
                '\tdefault "842" if ZRAM_DEF_COMP_842',
                '\tdefault "zbewalgo" if ZRAM_DEF_COMP_ZBEWALGO\n')
    tree.insert(zram + 'Makefile',
                'zram-$(CONFIG_ZRAM_BACKEND_842)		+= backend_842.o',
                'zram-$(CONFIG_ZRAM_BACKEND_ZBEWALGO)	+= backend_zbewalgo.o\n')
    tree.insert(zram + 'zcomp.c', '#include "backend_842.h"',
                '#include "backend_zbewalgo.h"\n')
    tree.insert(zram + 'zcomp.c', '\tNULL',
                '#if IS_ENABLED(CONFIG_ZRAM_BACKEND_ZBEWALGO)\n'
                '\t&backend_zbewalgo,\n#endif\n', after=False)
    if up:
        add_maintainers(tree, [zram + 'backend_zbewalgo.*'], up)


# zbewalgo's keys of algorithm_params, parsed by zram like deflate.winbits
# and kept in struct zcomp_params (in its union where the kernel has one)
# for the backend's setup_params().  The table is zram's copy of the text,
# freed with the other parameters.
ZBW_PARAMS_STRUCT = '''
/*
 * zbewalgo.* keys of algorithm_params: not set or NULL when absent.  The
 * table comes last: deflate's params, which share the union, never reach
 * it, so zram can free it whatever algorithm the device had.
 */
struct zbewalgo_zcomp_params {
	s32 early_abort_size;
	s32 max_output_size;
	char *table;
};
'''

# With the union, a device takes one algorithm's keys: those of the other
# would be read as its own.
ZRAM_CLASH_FN = '''/* deflate's and zbewalgo's keys share the union of struct zcomp_params */
static bool zram_params_clash(struct zram *zram, u32 prio,
			      struct deflate_params *deflate,
			      struct zbewalgo_zcomp_params *zbewalgo)
{
	const char *alg = zram->comp_algs[prio];
	bool zbw = alg && !strcmp(alg, "zbewalgo");

	if (zbewalgo->table ||
	    zbewalgo->early_abort_size != ZCOMP_PARAM_NOT_SET ||
	    zbewalgo->max_output_size != ZCOMP_PARAM_NOT_SET)
		return !zbw;
	return zbw && deflate->winbits != ZCOMP_PARAM_NOT_SET;
}

'''
ZRAM_CLASH_CHECK = '''	if (zram_params_clash(zram, prio, &deflate_params, &zbewalgo_params))
		return -EINVAL;

'''

ZBW_PARAMS_PARSE = '''		if (!strcmp(param, "zbewalgo.table")) {
			zbewalgo_params.table = val;
			continue;
		}

		if (!strcmp(param, "zbewalgo.early_abort_size")) {
			ret = kstrtoint(val, 10,
					&zbewalgo_params.early_abort_size);
			if (ret)
				return ret;
			continue;
		}

		if (!strcmp(param, "zbewalgo.max_output_size")) {
			ret = kstrtoint(val, 10,
					&zbewalgo_params.max_output_size);
			if (ret)
				return ret;
			continue;
		}

		/* A misspelt key of zbewalgo's must not pass unnoticed */
		if (str_has_prefix(param, "zbewalgo."))
			return -EINVAL;

'''


ZRAM_QUOTE_FN = '''/* Whether @s leaves a double quote open (next_arg() takes that) */
static bool zram_quote_open(const char *s)
{
	bool open = false;

	for (; *s; s++)
		if (*s == '"')
			open = !open;
	return open;
}

'''
ZRAM_QUOTE_CHECK = '''\tif (zram_quote_open(buf))
\t\treturn -EINVAL;

'''


def zram_keys(tree):
    """zram parses the zbewalgo.* keys of algorithm_params."""
    h, drv = 'drivers/block/zram/zcomp.h', 'drivers/block/zram/zram_drv.c'
    not_set = ('ZCOMP_PARAM_NOT_SET' if 'ZCOMP_PARAM_NOT_SET' in tree.read(h)
               else 'ZCOMP_PARAM_NO_LEVEL')
    tree.insert(h, '#define %s\tINT_MIN' % not_set, ZBW_PARAMS_STRUCT,
                marker='struct zbewalgo_zcomp_params {')
    union = '\t\tstruct deflate_params deflate;\n\t};\n'
    if 'struct zbewalgo_zcomp_params zbewalgo;' in tree.read(h):
        pass
    elif union in tree.read(h):
        tree.replace(h, union, '\t\tstruct deflate_params deflate;\n'
                     '\t\tstruct zbewalgo_zcomp_params zbewalgo;\n\t};\n')
    else:
        tree.replace(h, '\n\n\tvoid *drv_data;\n};',
                     '\n\tstruct zbewalgo_zcomp_params zbewalgo;\n'
                     '\n\tvoid *drv_data;\n};')
    tree.replace(drv, '\tparams->dict_sz = 0;\n\tparams->dict = NULL;\n}\n',
                 '\tparams->dict_sz = 0;\n\tparams->dict = NULL;\n'
                 '\tkfree(params->zbewalgo.table);\n'
                 '\tparams->zbewalgo.table = NULL;\n'
                 '\tparams->zbewalgo.early_abort_size = %s;\n'
                 '\tparams->zbewalgo.max_output_size = %s;\n}\n'
                 % (not_set, not_set))
    text = tree.read(drv)
    if 'struct zbewalgo_zcomp_params *zbewalgo_params)' not in text:
        m = re.search(r'static int comp_params_store\(struct zram \*zram,'
                      r'[^)]*\)\n\{\n', text)
        if not m:
            sys.exit('%s: comp_params_store() not found' % drv)
        head = m.group(0)
        text = text.replace(head, head[:-4] + ',\n\t\t\t     '
                            'struct zbewalgo_zcomp_params *zbewalgo_params)'
                            '\n{\n', 1)
        tree.write(drv, text)
    # After deflate's winbits, which shares early_abort_size's place.
    store = '\tzram->params[prio].deflate.winbits = deflate_params->winbits;\n'
    if store not in tree.read(drv):
        store = '\tzram->params[prio].dict_sz = sz;\n'
    tree.replace(drv, store, (store if 'deflate' in store else '') +
                 '\tif (zbewalgo_params->table) {\n'
                 '\t\tzram->params[prio].zbewalgo.table =\n'
                 '\t\t\tkstrdup(zbewalgo_params->table, GFP_KERNEL);\n'
                 '\t\tif (!zram->params[prio].zbewalgo.table)\n'
                 '\t\t\treturn -ENOMEM;\n\t}\n'
                 '\tzram->params[prio].zbewalgo.early_abort_size =\n'
                 '\t\tzbewalgo_params->early_abort_size;\n'
                 '\tzram->params[prio].zbewalgo.max_output_size =\n'
                 '\t\tzbewalgo_params->max_output_size;\n' +
                 ('' if 'deflate' in store else store))
    text = tree.read(drv)
    m = re.search(r'(static ssize_t algorithm_params_store\(.*?\n)'
                  r'(\tstruct zram \*zram = dev_to_zram\(dev\);\n)', text,
                  re.S)
    if not m:
        sys.exit('%s: algorithm_params_store() not found' % drv)
    if 'struct zbewalgo_zcomp_params zbewalgo_params' not in text:
        text = text.replace(m.group(0), m.group(0) +
                            '\tstruct zbewalgo_zcomp_params zbewalgo_params = {\n'
                            '\t\t.early_abort_size = %s,\n'
                            '\t\t.max_output_size = %s,\n\t};\n'
                            % (not_set, not_set), 1)
        text = re.sub(r'comp_params_store\(zram, prio, level, dict_path'
                      r'(, &deflate_params)?\)',
                      lambda k: k.group(0)[:-1] + ',\n\t\t\t\t'
                      '&zbewalgo_params)',
                      text, count=1)
        tree.write(drv, text)
    tree.insert(drv, '\t\tif (!strcmp(param, "dict")) {', ZBW_PARAMS_PARSE,
                after=False)
    # next_arg() takes the text after an unterminated quote as the value:
    # zbewalgo.table="delta4-zstd would pass for delta4-zstd.
    tree.insert(drv, 'static ssize_t algorithm_params_store(struct device *dev,',
                ZRAM_QUOTE_FN, after=False)
    if 'struct deflate_params deflate_params;' in tree.read(drv):
        tree.insert(drv, 'static ssize_t algorithm_params_store(struct device *dev,',
                    ZRAM_CLASH_FN, after=False)
        tree.insert(drv, '\tret = comp_params_store(zram, prio, level, '
                    'dict_path, &deflate_params,', ZRAM_CLASH_CHECK,
                    after=False)
    text = tree.read(drv)
    if 'zram_quote_open(buf)' not in text:
        i = text.index('static ssize_t algorithm_params_store(')
        j = text.index('\targs = skip_spaces(buf);\n', i)
        text = text[:j] + ZRAM_QUOTE_CHECK + text[j:]
        tree.write(drv, text)


# zram-busy: 6.12's algorithm_params_store() changes a device's parameters
# after disksize, without setup_params(): a level the backend refuses then
# fails only when a CPU comes online.  7.2 refuses the write (-EBUSY).
def stage_zram_busy(repo, tree, up):
    """6.12: algorithm_params refused on an initialised device (not in
    the series; 7.2 does it)."""
    rel = 'drivers/block/zram/zram_drv.c'
    if 'config ZRAM_BACKEND_LZ4\n' not in tree.read(
            'drivers/block/zram/Kconfig'):
        return
    old = ('\tret = comp_params_store(zram, prio, level, dict_path')
    text = tree.read(rel)
    body = text[text.index('static ssize_t algorithm_params_store('):]
    body = body[:body.index('\n}\n')]
    if 'init_done(zram)' in body:
        return
    i = text.index(old, text.index('static ssize_t algorithm_params_store('))
    j = text.index('\treturn ret ? ret : len;\n', i)
    call = text[i:j]
    text = (text[:i] + '\tdown_write(&zram->init_lock);\n'
            '\tif (init_done(zram)) {\n\t\tup_write(&zram->init_lock);\n'
            '\t\treturn -EBUSY;\n\t}\n' + call +
            '\tup_write(&zram->init_lock);\n' + text[j:])
    tree.write(rel, text)


# zram-retry: up to 6.12, zram_write_page() compresses a page, and when
# the non-sleeping zs_malloc() for that length fails, it puts the stream,
# allocates with GFP_NOIO and compresses again, perhaps on another CPU's
# stream, then copies the second result into the object sized for the
# first.  Each edit is (old, new) text of that function.
ZRAM_RETRY_EDITS = [
    ('\tunsigned int comp_len = 0;\n\tvoid *src, *dst, *mem;\n',
     '\tunsigned int comp_len = 0;\n\tunsigned int last_comp_len = 0;\n'
     '\tvoid *src, *dst, *mem;\n'),
    ('\tif (comp_len >= huge_class_size)\n\t\tcomp_len = PAGE_SIZE;\n'
     '\t/*\n\t * handle allocation has 2 paths:\n',
     '\tif (comp_len >= huge_class_size)\n\t\tcomp_len = PAGE_SIZE;\n'
     '\n'
     '\t/*\n'
     '\t * The slow path below allocated the handle for the length of the\n'
     '\t * first compression.  The page may compress to another length the\n'
     '\t * second time (another CPU\'s stream, a compressor whose output\n'
     '\t * depends on its state or settings): it would not fit, so allocate\n'
     '\t * again for this length.\n'
     '\t */\n'
     '\tif (last_comp_len && last_comp_len != comp_len) {\n'
     '\t\tzs_free(zram->mem_pool, handle);\n'
     '\t\thandle = -ENOMEM;\n'
     '\t\tlast_comp_len = 0;\n'
     '\t}\n'
     '\n'
     '\t/*\n\t * handle allocation has 2 paths:\n'),
    ('\t\tif (comp_len != PAGE_SIZE)\n\t\t\tgoto compress_again;\n',
     '\t\tif (comp_len != PAGE_SIZE) {\n'
     '\t\t\tlast_comp_len = comp_len;\n'
     '\t\t\tgoto compress_again;\n'
     '\t\t}\n'),
]


def stage_zram_retry(repo, tree, up):
    """zram's length check after the second compression, on trees whose
    zram_write_page() still compresses twice (6.12; not in the series)."""
    rel = 'drivers/block/zram/zram_drv.c'
    if 'config ZRAM_BACKEND_LZ4\n' not in tree.read(
            'drivers/block/zram/Kconfig'):
        return
    if 'goto compress_again;' not in tree.read(rel):
        return
    for old, new in ZRAM_RETRY_EDITS:
        tree.replace(rel, old, new)


def stage_classic(repo, tree, up):
    """The classic steps: their files, CONFIG_ZBEWALGO_CLASSIC_STEPS and
    the code under it."""
    copy_lib(repo, tree, classic=True, tuning=True)


def stage_zram_keys(repo, tree, up):
    """zram's side of the zbewalgo.* keys: parsed into struct
    zcomp_params, which the tuning plane's backend reads."""
    if 'config ZRAM_BACKEND_LZ4\n' in tree.read('drivers/block/zram/Kconfig'):
        zram_keys(tree)


def stage_tuning(repo, tree, up):
    """The run-time tuning plane: /sys/kernel/zbewalgo, the backend's
    zbewalgo.* keys, CONFIG_ZBEWALGO_TUNING and the code under it."""
    copy_lib(repo, tree, classic=False, tuning=True)
    zram = 'drivers/block/zram/'
    if 'config ZRAM_BACKEND_LZ4\n' not in tree.read(zram + 'Kconfig'):
        return
    for rel in ZRAM_FILES:
        copy(repo, tree, rel, zram_defines(tree, up, tuning=True))


def stage_docs(repo, tree, up):
    """Format spec, sysfs ABI, and upstream the admin guide."""
    docs = DOCS + [d for d in UPSTREAM_DOCS if up and
                   os.path.exists(os.path.join(repo, d))]
    for rel in docs:
        copy(repo, tree, rel)
    if not up:
        return
    for rel in UPSTREAM_DOCS:
        # The project's tests find the guide's commands by these comments;
        # the kernel's copy has no use for them.
        if rel in docs:
            tree.write(rel, re.sub(r'(?m)^\.\. zbw-test: .*\n\n', '',
                                   tree.read(rel)))
    for rel in docs:
        if rel.endswith('.rst'):
            add_toctree(tree, os.path.dirname(rel) + '/index.rst',
                        os.path.basename(rel)[:-4])
    add_maintainers(tree, docs, up)


# Each stage takes up: None for the default tree, else the MAINTAINERS M:
# line of the series' form.
STAGES = {'lib': stage_lib, 'crypto': stage_crypto, 'zram': stage_zram,
          'zram-keys': stage_zram_keys, 'tuning': stage_tuning, 'classic': stage_classic,
          'docs': stage_docs,
          'zram-retry': stage_zram_retry, 'zram-busy': stage_zram_busy}


def main():
    args = sys.argv[1:]
    only, up, maintainer = list(STAGES), False, DEFAULT_MAINTAINER
    while args and args[0].startswith('--'):
        opt = args.pop(0)
        if opt == '--upstream':
            up = True
        elif opt in ('--only', '--maintainer') and args:
            val = args.pop(0)
            if opt == '--maintainer':
                maintainer = val
                continue
            only = val.split(',')
            if not set(only) <= set(STAGES):
                sys.exit('unknown stage in %r (stages: %s)'
                         % (val, ' '.join(STAGES)))
        else:
            sys.exit(__doc__)
    if len(args) != 2:
        sys.exit(__doc__)
    repo, tree = args[0], Tree(args[1])
    for name in STAGES:
        if name in only:
            STAGES[name](repo, tree, maintainer if up else None)
    return 0


if __name__ == '__main__':
    sys.exit(main())
