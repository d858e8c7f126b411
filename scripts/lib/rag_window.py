#!/usr/bin/env python3
"""How much of an OSDDA event stream a GPU could decide at once.

Reads a detect trace (gpubench detect --emit-trace, docs/detect-trace.md) of
single-unit resources and replays it in the model's order, keeping for each
process the resource it waits for and for each resource its holder. For each
event it takes the footprint the event reads or writes: its resource, its
process when it blocks, the processes and resources of the chain from the
resource's holder to the chain's active end (a blocking request), the process
regranted (a release). Windows of W events are then cut as a speculative
decider would: the events of a window are evaluated together on the state
before it, the longest prefix whose footprints are disjoint commits, and the
next window starts after it. The mean of that prefix is what one round of
such a decider can commit; docs/detect.md ("The floor against one core") uses
it.

usage: rag_window.py TRACE [--window W ...]
prints one line per W: events, rounds, events a round, mean and max footprint
"""
import argparse
import sys


def load(path):
    procs = res = 0
    events = []
    with open(path) as f:
        for line in f:
            w = line.split()
            if not w or w[0].startswith('#'):
                continue
            if w[0] == 'processes':
                procs = int(w[1])
            elif w[0] == 'resources':
                res = int(w[1])
            elif w[0] == 'units':
                if len(w) > 2 and int(w[2]) != 1 or len(w) == 2 and int(w[1]) != 1:
                    sys.exit('rag_window.py: single-unit (OSDDA) traces only')
            elif w[0] in ('request', 'release'):
                events.append((w[0] == 'release', int(w[1]), int(w[2])))
            else:
                sys.exit('rag_window.py: unknown line: ' + line.strip())
    return procs, res, events


class Osdda:
    def __init__(self, procs, res):
        self.holder = [None] * res
        self.wait = [None] * procs
        self.waiters = [[] for _ in range(res)]

    def sink(self, q):
        """The chain from q's holder: its members ('P', x) and ('R', r), and its active end."""
        items, t = [], self.holder[q]
        items.append(('P', t))
        while self.wait[t] is not None:
            r = self.wait[t]
            t = self.holder[r]
            items += [('R', r), ('P', t)]
        return items, t

    def footprint(self, rel, p, q):
        fp = {('R', q)}
        if rel:
            if self.waiters[q]:
                fp.add(('P', min(self.waiters[q])))
            return fp
        if self.holder[q] is None:
            return fp
        items, t = self.sink(q)
        fp.update(items)
        if t != p:
            fp.add(('P', p))
        return fp

    def apply(self, rel, p, q):
        if rel:
            if self.waiters[q]:
                t = min(self.waiters[q])
                self.waiters[q].remove(t)
                self.holder[q] = t
                self.wait[t] = None
            else:
                self.holder[q] = None
            return
        if self.holder[q] is None:
            self.holder[q] = p
            return
        _, t = self.sink(q)
        if t != p:
            self.wait[p] = q
            self.waiters[q].append(p)


def rounds(procs, res, events, window):
    g = Osdda(procs, res)
    i = n = 0
    sizes = []
    while i < len(events):
        n += 1
        seen, k = set(), 0
        for e in events[i:i + window]:
            fp = g.footprint(*e)
            sizes.append(len(fp))
            if k and fp & seen:
                break
            seen |= fp
            k += 1
        for e in events[i:i + k]:
            g.apply(*e)
        i += k
    return n, sizes


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('trace')
    ap.add_argument('--window', type=int, action='append')
    a = ap.parse_args()
    procs, res, events = load(a.trace)
    for w in a.window or [32]:
        if w < 1:
            sys.exit('rag_window.py: --window must be at least 1')
        n, sizes = rounds(procs, res, events, w)
        print('window %d: %d events in %d rounds, %.1f events a round; footprint mean %.1f max %d'
              % (w, len(events), n, len(events) / n if n else 0, sum(sizes) / len(sizes) if sizes else 0,
                 max(sizes) if sizes else 0))


if __name__ == '__main__':
    main()
