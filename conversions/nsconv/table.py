# SPDX-License-Identifier: GPL-2.0-or-later
"""conversions.tsv, the intent and the one source of truth: per namespace
its exporter files, its partner modules, the symbols kept open on purpose,
where the grants go and the comment above them."""

from dataclasses import dataclass, field

from .common import InputError, read


@dataclass
class Namespace:
    name: str
    exporter_globs: list = field(default_factory=list)
    partners: list = field(default_factory=list)
    open: dict = field(default_factory=dict)      # symbol -> reason
    allow_in: str = ''
    comment: list = field(default_factory=list)
    macro: str = ''        # the export macro, and macro + '_GPL'
    config: str = ''       # the Kconfig switch the conversion is under
    out_of_tree: str = ''  # keep: out-of-tree users keep a symbol open;
    #                        break: they are broken on purpose
    out_of_tree_why: str = ''
    dropped: list = field(default_factory=list)   # derived: glob modules


def load_table(path):
    """conversions.tsv -> [Namespace] in the series' order."""
    spaces, order = {}, []
    for n, line in enumerate(read(path).splitlines(), 1):
        if not line.strip() or line.startswith('#'):
            continue
        cols = line.split('\t')
        if len(cols) < 3:
            raise InputError(f'{path}:{n}: want NAMESPACE, KEY, VALUE')
        name, key, value = cols[0], cols[1], cols[2]
        if key == 'order':
            order = value.split()
            continue
        ns = spaces.setdefault(name, Namespace(name))
        if key == 'exporter':
            ns.exporter_globs.append(value)
        elif key == 'partner':
            ns.partners.append(value)
        elif key == 'open':
            ns.open[value] = cols[3] if len(cols) > 3 else ''
        elif key == 'allow_in':
            ns.allow_in = value
        elif key == 'comment':
            ns.comment.append(value)
        elif key == 'macro':
            ns.macro = value
        elif key == 'config':
            ns.config = value
        elif key == 'out_of_tree':
            if value not in ('keep', 'break'):
                raise InputError(f'{path}:{n}: out_of_tree is keep or '
                                 f'break, not {value}')
            ns.out_of_tree = value
            ns.out_of_tree_why = cols[3] if len(cols) > 3 else ''
        else:
            raise InputError(f'{path}:{n}: unknown key {key}')
    if sorted(order) != sorted(spaces):
        raise InputError(f'{path}: order {order} does not name every '
                         f'namespace {sorted(spaces)}')
    for ns in spaces.values():
        if not (ns.exporter_globs and ns.partners and ns.allow_in and
                ns.macro and ns.config and ns.out_of_tree):
            raise InputError(f'{path}: {ns.name} needs exporter, partner, '
                             'allow_in, macro, config and out_of_tree lines')
    return [spaces[n] for n in order]
