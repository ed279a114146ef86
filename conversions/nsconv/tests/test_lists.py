# SPDX-License-Identifier: GPL-2.0-or-later
"""table and lists: conversions.tsv is read strictly, lists.txt round
trips, and only restrict and allow lines decide."""

import unittest

from nsconv import lists, table
from nsconv.common import InputError
from nsconv.report import wrap
from nsconv.tests.fixtures import TreeCase, namespace

TSV = '''# comment
-\torder\ttcp
tcp\texporter\tnet/ipv4/tcp*.c
tcp\tpartner\tipv6
tcp\topen\treg\tthe registration pair
tcp\tallow_in\tnet/ipv4/tcp.c
tcp\tcomment\tFor IPv6.
tcp\tmacro\tEXPORT_SYMBOL_TCP
tcp\tconfig\tTCP_RESTRICT_EXPORTS
tcp\tout_of_tree\tkeep\tas in-tree users
'''


class Table(TreeCase):

    def test_read(self):
        ns, = table.load_table(self.put('t.tsv', TSV))
        self.assertEqual((ns.name, ns.exporter_globs, ns.partners, ns.open,
                          ns.allow_in, ns.comment, ns.macro, ns.config),
                         ('tcp', ['net/ipv4/tcp*.c'], ['ipv6'],
                          {'reg': 'the registration pair'},
                          'net/ipv4/tcp.c', ['For IPv6.'],
                          'EXPORT_SYMBOL_TCP', 'TCP_RESTRICT_EXPORTS'))

    def test_refused(self):
        for bad in (TSV + 'tcp\tcolour\tblue\n',
                    TSV.replace('\ttcp\n', '\ttcp udp\n'),
                    TSV + 'udp\tpartner\tx\n',
                    TSV.replace('tcp\tallow_in\tnet/ipv4/tcp.c\n', ''),
                    TSV.replace('tcp\tconfig\tTCP_RESTRICT_EXPORTS\n', ''),
                    TSV.replace('\tkeep\t', '\tmaybe\t')):
            with self.assertRaises(InputError, msg=bad):
                table.load_table(self.put('t.tsv', bad))


class Lists(TreeCase):

    def sample(self):
        ls = lists.Lists(data=['source\tlinux-source-6.1 6.1.1'])
        ls.restrict['tcp'] = [lists.Candidate('a', 'EXPORT_SYMBOL_GPL',
                                              'net/ipv4/tcp.c', 3)]
        ls.allow['tcp'] = {'ipv6': 'net/ipv6/af_inet6.c'}
        ls.open = {'b': ['sunrpc', 'tls']}
        ls.policy = {'reg': ('tcp', 'why')}
        ls.unused = ['d']
        return ls

    def test_round_trip(self):
        tbl = [namespace('tcp')]
        text = lists.format_lists(self.sample(), tbl)
        self.assertTrue(text.startswith(lists.LISTS_HEAD))
        back = lists.parse_lists(self.put('l.txt', text))
        self.assertEqual(lists.format_lists(back, tbl), text)
        self.assertEqual(lists.decisions(back), [
            'allow\ttcp\tipv6\tnet/ipv6/af_inet6.c',
            'restrict\ttcp\tEXPORT_SYMBOL_GPL\tnet/ipv4/tcp.c\ta'])

    def test_refused(self):
        with self.assertRaises(InputError):
            lists.parse_lists(self.put('l.txt', 'restrict\ttcp\n'))
        with self.assertRaisesRegex(InputError, 'missing'):
            lists.parse_lists(self.root + '/none')


class Wrap(unittest.TestCase):

    def test_wrap(self):
        self.assertEqual(wrap('aaa bbb ccc', width=8, first='  ',
                              rest='    '), '  aaa\n    bbb\n    ccc')


if __name__ == '__main__':
    unittest.main()
