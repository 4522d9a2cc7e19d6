# PyChess's Engines dialog through PyChess's own code (the system's `python3`, Xvfb, a scratch
# HOME): what "Add from folder" offers and finds, what New's probes find.
#
# "Add from folder" lists the folder (listEnginesFromPath), takes the ticked file by its entry in
# PyChess's list of engines (getReferencedEngine: its protocol and interpreter) and discovers it; "New" probes the file
# with is_cecp and is_uci. Prints one JSON object: the files offered, the entry, the protocol each
# probe found, and the discovery's outcome (discovered with its options, or failed) and time.
# usage: python3 pychess-add.py FOLDER/ FILE [SECONDS]      (SECONDS 0: the probes only)
import asyncio
import json
import sys
import time

folder, ticked = sys.argv[1], sys.argv[2]
limit = float(sys.argv[3]) if len(sys.argv) > 3 else 90
sys.argv = ['pychess']
from pychess.Players.engineList import listEnginesFromPath  # noqa: E402
from pychess.Players.engineNest import discoverer, is_cecp, is_uci  # noqa: E402

out = {'offered': sorted(f[len(folder):] for f in listEnginesFromPath(folder))}
command = ['/usr/bin/env', 'node', folder + ticked]
out['new'] = [name for name, probe in (('xboard', is_cecp), ('uci', is_uci)) if probe(command)]
entry = discoverer.getReferencedEngine(folder + ticked)
out['entry'] = None if entry is None else {k: entry.get(k) for k in ('name', 'protocol', 'vm_name')}
loop = asyncio.get_event_loop()
start = time.time()


def told(outcome):
    def f(_, name, engine):
        if name == ticked:
            out['outcome'] = outcome
            out['seconds'] = round(time.time() - start, 1)
            out['options'] = [o.get('name') for o in engine.get('options', [])]
    return f


discoverer.connect('engine_discovered', told('discovered'))
discoverer.connect('engine_failed', told('failed'))
discoverer.connect('all_engines_discovered', lambda _: loop.stop())
if entry is not None and limit > 0:
    discoverer.addEngineFromReference(entry)
    discoverer.discover()
    loop.call_later(limit, loop.stop)
    loop.run_forever()
print(json.dumps(out))
