# SPDX-License-Identifier: GPL-2.0-or-later
"""What the derivation says to people: report.txt (every decision with
its evidence), the paragraph of each patch's commit message (messages/),
and explain (every reference to a symbol and what it counted for)."""

import os
import re

from .common import InputError, read


def report(data, lists, groups):
    """report.txt's lines: the data, then per exporter group its counts,
    the restricted symbols with their partners, and the open ones with
    every user."""
    sc = data.scan
    rep = [f'== data: Debian linux-image-{data.kver} ({data.pkgver}), '
           f'{data.nmods} modules; linux-source-6.1 {data.version}',
           f'source scan: {len(sc.files)} files refer to a candidate or to '
           f'a header inline or macro that does ({len(sc.names)} names, '
           f'{sc.passes} passes); {len(sc.refs)} references',
           'files whose braces do not balance (every reference counted): '
           + (' '.join(sc.unparsed) or 'none'), '']
    for g in groups:
        rep += group_report(data, lists, g)
    rep += out_of_tree_report(data, lists)
    rep += builtin_report(data.kbuild, lists, data.table,
                          debian_config(data.debian), "Debian's")
    return rep


def out_of_tree_report(data, lists):
    """Each out-of-tree user, the candidates it uses and what the lists
    made of each: kept open (for it or for others), restricted and so
    broken on purpose, or open by the table."""
    oot = data.oot
    rep = [f'== out-of-tree users: {oot.summary()}']
    for pkg, why in oot.failed:
        rep.append(f'  does not build: {pkg}: {why}')
    verdict = {c.symbol: ns for ns, cs in lists.restrict.items() for c in cs}
    mods = sorted({m for users in oot.users.values() for m in users})
    for m in mods:
        syms = sorted(s for s, users in oot.users.items() if m in users)
        ev = next(oot.users[s][m] for s in syms)
        rep.append(f'  {m} ({ev})')
        for s in syms:
            if s in lists.broken:
                what = f'restricted to {lists.broken[s][0]}: BROKEN on purpose'
            elif s in verdict:
                what = f'restricted to {verdict[s]}: BROKEN'
            elif s in lists.policy:
                what = 'open (conversions.tsv: ' + lists.policy[s][1] + ')'
            elif s in lists.open:
                others = sorted(set(lists.open[s]) - {m})
                what = 'kept open' + (f', also for {" ".join(others)}'
                                      if others else ', for it alone')
            else:
                what = 'open'
            rep.append(f'    {s}: {what}')
    rep.append('')
    return rep


def debian_config(debian):
    """Debian's .config: boot/config-* of its tree."""
    boot = os.path.join(debian, 'boot')
    names = sorted(f for f in os.listdir(boot) if f.startswith('config-')) \
        if os.path.isdir(boot) else []
    if not names:
        raise InputError(f'{boot}: no config-* (the kernel\'s .config)')
    return os.path.join(boot, names[-1])


def read_config(path):
    """CONFIG_X=value lines of a .config, as {X: value}."""
    out = {}
    for line in read(path).splitlines():
        m = re.match(r'^CONFIG_(\w+)=(.*)$', line)
        if m:
            out[m.group(1)] = m.group(2)
    return out


def builtin_report(kbuild, lists, table, config_path, whose):
    """What each namespace's grants mean on a configuration: a grant to
    a module built in admits nobody (the loader never judges built-in
    code, and no loadable module can take its name)."""
    config = read_config(config_path)
    rep = [f'== grants on {whose} configuration '
           f'({os.path.basename(config_path)})']
    for ns in table:
        grants = sorted(lists.allow.get(ns.name, {}))
        n = len(lists.restrict.get(ns.name, []))
        state = {}
        for m in grants:
            sym = kbuild.config_of(m)
            state[m] = (sym, config.get(sym, 'n') if sym else '?')
        builtin = [m for m in grants if state[m][1] == 'y']
        desc = ', '.join(f'{m} (CONFIG_{state[m][0]}={state[m][1]})'
                         for m in builtin)
        if not grants:
            rep.append(f'  {ns.name}: no grant')
        elif len(builtin) == len(grants):
            rep.append(f'  {ns.name}: every grantee is built in: {desc}; '
                       f'the namespace admits no module, its {n} symbols '
                       'are unexported for modules')
        elif builtin:
            rep.append(f'  {ns.name}: built in: {desc}; those grants admit '
                       f'nobody, the {len(grants) - len(builtin)} other '
                       'grantees are modules')
        else:
            rep.append(f'  {ns.name}: every grantee can be a module')
    rep.append('')
    return rep


def open_counts(g):
    """The group's symbols kept open by users, and among them those with
    a Debian module outside the partners, and those used by partners
    (of different namespaces) alone."""
    nopen = g.having('open')
    by_deb = [s for s in nopen if any(
        'Debian' in ev for m, evs in g.why[s].items()
        if not g.partner(m) for ev in evs)]
    mixed = [s for s in nopen if all(g.partner(m) for m in g.why[s])]
    return nopen, by_deb, mixed


def group_report(data, lists, g):
    spaces, why = g.spaces, g.why
    names = '+'.join(ns.name for ns in spaces)
    nopen, by_deb, mixed = open_counts(g)
    rep = [f'== {names}: exporter {" ".join(g.globs)}',
           f'exporter files (built in): '
           f'{" ".join(sorted(data.exporters[spaces[0].name]))}']
    if spaces[0].dropped:
        rep.append('not exporters (Kbuild can build them as modules): '
                   + ' '.join(spaces[0].dropped))
    rep.append(f'candidates: {len(g.syms)} exports')
    for ns in spaces:
        rep.append(f'  restricted to {ns.name}: '
                   f'{len(lists.restrict[ns.name])}, for '
                   f'{", ".join(lists.allow[ns.name]) or "nobody"}')
    pol = g.having('policy')
    rep.append(f'  open by the table: {len(pol)} '
               f'({" ".join(sorted(pol))})' if pol else
               '  open by the table: 0')
    rep.append(f'  kept open by other users: {len(nopen)} ('
               f'{len(by_deb)} with a Debian module among them, '
               f'{len(nopen) - len(by_deb) - len(mixed)} by the source '
               f'scan alone, {len(mixed)} used by partners of '
               'different namespaces)')
    unused = g.having('unused')
    rep.append(f'  no module user at all, left open: {len(unused)}'
               + (f' ({" ".join(sorted(unused))})' if unused else ''))
    for ns in spaces:
        rep.append('')
        rep.append(f'-- {ns.name}: restricted symbols and the partners '
                   'that use them')
        for c in lists.restrict[ns.name]:
            rep.append(f'  {c.symbol}  ({c.path}:{c.line}; '
                       f'{", ".join(sorted(why[c.symbol]))})')
    rep.append('')
    rep.append(f'-- {names}: kept open, with every user (Debian: '
               'the .ko has it undefined; file:line: the source scan)')
    for s in sorted(nopen):
        rep.append(f'  {s}')
        for m, evs in sorted(why[s].items()):
            tag = ' [partner]' if g.partner(m) else ''
            rep.append(f'    {m}{tag}: {"; ".join(evs[:4])}'
                       + (f'; +{len(evs) - 4} more' if len(evs) > 4
                          else ''))
    rep.append('')
    return rep


def messages(data, lists, groups):
    """{namespace: the derivation's part of its commit message}."""
    out = {}
    for g in groups:
        _, by_deb, mixed = open_counts(g)
        kinds = {k: g.having(k) for k in ('policy', 'unused')}
        for ns in g.spaces:
            out[ns.name] = message(data, ns, g.spaces, g.globs, len(g.syms),
                                   lists, g.why, kinds, len(by_deb),
                                   len(mixed))
    return out


def wrap(text, width=72, first='', rest=''):
    """text filled to width, its first line indented by first, the others
    by rest."""
    lines, cur = [], first
    for w in text.split():
        if cur.strip() and len(cur) + 1 + len(w) > width:
            lines.append(cur)
            cur = rest
        cur += (' ' if cur.strip() else '') + w
    return '\n'.join(lines + [cur])


def message(data, ns, spaces, globs, ncand, out, why, kinds, ndeb, nmixed):
    """The part of the namespace's commit message that says how its list
    was derived, from which data, with the counts and the symbols."""
    partners = ', '.join(sorted(out.allow[ns.name])) or 'nobody'
    others = [o for o in spaces if o is not ns]
    nopen = sum(1 for s in why if s in out.open)
    near = sorted(s for s in why if s in out.open
                  if any(m in ns.partners for m in why[s]))
    split = [f'{len(out.restrict[ns.name])} go into {ns.name}, for '
             f'{partners}']
    split += [f'{len(out.restrict[o.name])} into {o.name}' for o in others]
    if kinds['policy']:
        split.append(f'{len(kinds["policy"])} stay open by design '
                     f'({", ".join(sorted(kinds["policy"]))})')
    split.append(f'{nopen} stay open because modules other than the '
                 f'partners use them ({ndeb} with a module of Debian\'s tree '
                 f'among them, {nopen - ndeb - nmixed} found by the source '
                 'scan alone)')
    split.append(f'{len(kinds["unused"])} have no module user and stay open')
    par = [
        'How the list was derived (conversions/derive.py, make -C '
        'conversions lists): the candidates are the EXPORT_SYMBOL and '
        'EXPORT_SYMBOL_GPL lines of the built-in files of '
        f'{" ".join(globs)}, {ncand} in all. A candidate\'s users are the '
        f'modules of Debian\'s linux-image-{data.kver} ({data.pkgver}) that '
        f'have it undefined ({data.nmods} modules, nm -u), and every .c file '
        f'of the linux-source-6.1 {data.version} tree that Kbuild can build '
        'as a module and refers to it, directly or through a header\'s '
        'inline function or macro. ' + out_of_tree_sentence(data, ns, out) +
        'A candidate goes into '
        f'{ns.name} when at least one of its partners '
        f'({", ".join(ns.partners)}) uses it and nothing else does.',
        f'Of the {ncand}: ' + '; '.join(split) + '.']
    text = '\n\n'.join(wrap(p) for p in par) + '\n'
    if near:
        here = sorted({m for s in near for m in why[s] if m in ns.partners})
        text += (f'\nKept open although {", ".join(here)} '
                 f'use{"s" if len(here) == 1 else ""} them, for their other '
                 'users:\n')
        for s in near:
            users = sorted(m for m in why[s] if m not in ns.partners)
            text += wrap(f'{s}: {" ".join(users)}', first='  ',
                         rest='    ') + '\n'
    text += '\nSymbols:\n' + ''.join(f'  {c.symbol}\n'
                                      for c in out.restrict[ns.name])
    return text


def out_of_tree_sentence(data, ns, out):
    """Whether out-of-tree modules counted, and for break, whom it
    breaks."""
    src = ('Out-of-tree modules, those of Debian 12\'s DKMS packages built '
           'against its headers and those conversions/out-of-tree.tsv '
           f'lists ({data.oot.summary()}),')
    if ns.out_of_tree == 'keep':
        return f'{src} count as users too. '
    broken = sorted({m for s, (n, users) in out.broken.items()
                     if n == ns.name for m in users})
    return (f'{src} do not count: {ns.out_of_tree_why}' +
            (f'; this breaks {", ".join(broken)}. ' if broken else '. '))


def explain(data, symbols):
    """Every reference to each symbol, and what the derivation made of it."""
    for sym in symbols:
        spaces = [ns for ns in data.table if sym in data.cands[ns.name]]
        if not spaces:
            print(f'{sym}: no candidate of any namespace')
            continue
        c = data.cands[spaces[0].name][sym]
        print(f'{sym}: {c.kind} in {c.path}:{c.line}')
        chains = data.scan.closure(sym)
        if len(chains) > 1:
            print('  reached through: ' + ', '.join(
                '>'.join(ch) for n, ch in sorted(chains.items()) if n != sym))
        for ns in spaces:
            ignored = []
            part, other = data.users(sym, ns, ignored)
            verdict = ('open (conversions.tsv)' if sym in ns.open else
                       'restricted' if part and not other else 'not here')
            print(f'  {ns.name}: {verdict}; partners using it: '
                  f'{" ".join(sorted(part)) or "none"}; others: '
                  f'{" ".join(sorted(other)) or "none"}')
        for m, evs in sorted({**part, **other}.items()):
            print(f'    user {m}: {"; ".join(evs)}')
        for e in ignored:
            print(f'    not a user: {e}')
    return 0
