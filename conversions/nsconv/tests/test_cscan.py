# SPDX-License-Identifier: GPL-2.0-or-later
"""cscan: what counts as a reference, and how a header inline or macro
passes its references on to whoever names it."""

import unittest

from nsconv import cscan
from nsconv.kbuild import Kbuild
from nsconv.tests.fixtures import TreeCase


class Clean(unittest.TestCase):

    def test_literals_blanked_but_a_name_kept(self):
        text = '/* tcp_done */ x = "tcp_done"; y = "tcp_done()"; // tcp_done'
        out = cscan.clean(text, {'tcp_done'})
        self.assertEqual(len(out), len(text))
        self.assertEqual(out.count('tcp_done'), 1)   # __symbol_get("x")


class ScanFile(TreeCase):

    def refs(self, path, text, names=('sym',)):
        self.put(path, text)
        refs, ok = cscan.scan_file(self.root, path, set(names))
        self.assertTrue(ok)
        return [(r.line, r.where, r.entity) for r in refs]

    def test_not_references(self):
        c = '''extern int sym;
int sym(int a);
struct sym { int sym; };
void f(struct x *p, int sym) { p->sym = 1; p.sym = sym; }
static struct ops o = { .sym = 1 };
'''
        self.assertEqual(self.refs('a.c', c), [])

    def test_references(self):
        c = '''int f(void)
{
	return sym(1);
}
void *p = &sym;
#if 0
int g(void) { return sym(2); }
#endif
'''
        self.assertEqual([r[:2] for r in self.refs('a.c', c)],
                         [(3, 'use'), (5, 'use'), (7, 'use')])

    def test_file_static_hides_the_global(self):
        c = 'static int sym;\nint f(void) { return sym; }\n'
        self.assertEqual(self.refs('a.c', c), [])
        c = '#ifdef X\nstatic int sym;\n#endif\nint f(void) { return sym; }\n'
        # Inside #if another branch could use the global: both the
        # static's own line and the use count (open errs safely).
        self.assertEqual([r[:2] for r in self.refs('b.c', c)],
                         [(2, 'use'), (4, 'use')])

    def test_header(self):
        h = '''static inline int inl(void) { return sym; }
#define MAC(x) (sym + (x))
int visible(void) { return sym; }
#define DEFINE_FOO(x) x
DEFINE_FOO(y) { return sym; }
static int t = sym;
'''
        self.assertEqual(self.refs('a.h', h), [
            (2, 'inline', ['MAC']), (1, 'inline', ['inl']),
            (3, 'top', ['visible']), (5, 'top', ['DEFINE_FOO']),
            (6, 'top', [])])

    def test_unbalanced(self):
        self.put('u.h', '#if A\nint f(void) {\n#else\nint f(void) {\n'
                 '#endif\n\treturn sym;\n}\n')
        refs, ok = cscan.scan_file(self.root, 'u.h', {'sym'})
        self.assertFalse(ok)
        self.assertEqual([r.where for r in refs], ['top'])


class SourceScan(TreeCase):

    def test_followed_through_inlines(self):
        self.put('include/net/tcp.h',
                 'static inline int outer(void) { return inner(); }\n'
                 'static inline int inner(void) { return sym; }\n')
        self.put('drivers/m/m.c', 'int f(void) { return outer(); }\n')
        self.put('drivers/m/Makefile', 'obj-m += m.o\n')
        self.put('tools/bpf/prog.c', 'int g(void) { return sym; }\n')
        sc = cscan.SourceScan(self.root, Kbuild(self.root), {'sym'})
        self.assertEqual(sc.names, {'sym', 'inner', 'outer'})
        self.assertEqual(sc.closure('sym'), {
            'sym': ['sym'], 'inner': ['sym', 'inner'],
            'outer': ['sym', 'inner', 'outer']})
        self.assertEqual(sorted(sc.files),
                         ['drivers/m/m.c', 'include/net/tcp.h'])
        self.assertEqual([(r.path, r.name) for r in sc.by_name['outer']],
                         [('drivers/m/m.c', 'outer')])


if __name__ == '__main__':
    unittest.main()
