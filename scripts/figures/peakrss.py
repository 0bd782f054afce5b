#!/usr/bin/env python3
"""Runs a command and reports the peak resident memory (VmHWM) of it and of
every process below it, by role (the bench program's subcommand, or the
program's name), plus a process started elsewhere (--pid=N: a Kafka broker).
Samples every 50 ms; VmHWM is the kernel's own high-water mark, so a sample
misses only what a process grows after the last one before it exits. Prints
one line per role on stderr: PEAK_RSS role=<role> MiB=<peak>.

  scripts/figures/peakrss.py [--pid=N] COMMAND [ARG]...     (exits with COMMAND's code)"""
import os, subprocess, sys, time
extra = None
args = sys.argv[1:]
if args and args[0].startswith('--pid='):
    extra = int(args[0][6:]); args = args[1:]
p = subprocess.Popen(args)
peak = {}
def role(pid):
    try:
        cmd = open(f'/proc/{pid}/cmdline','rb').read().split(b'\0')
    except OSError:
        return None
    words = [c.decode(errors='replace') for c in cmd if c]
    if pid == extra: return 'external broker'
    for w in ('embedded-broker','pipeline-consume','pipeline-fill','sizes','check'):
        if w in words: return w
    return os.path.basename(words[0]) if words else None
def hwm(pid):
    try:
        for l in open(f'/proc/{pid}/status'):
            if l.startswith('VmHWM:'): return int(l.split()[1])*1024
    except OSError:
        return 0
    return 0
def descendants(root):
    kids = {}
    for d in os.listdir('/proc'):
        if not d.isdigit(): continue
        try: ppid = int(open(f'/proc/{d}/stat').read().rsplit(')',1)[1].split()[1])
        except Exception: continue
        kids.setdefault(ppid, []).append(int(d))
    out, stack = [], [root]
    while stack:
        x = stack.pop(); out.append(x); stack += kids.get(x, [])
    return out
while p.poll() is None:
    pids = descendants(p.pid) + ([extra] if extra else [])
    for pid in pids:
        r = role(pid)
        if r: peak[r] = max(peak.get(r, 0), hwm(pid))
    time.sleep(0.05)
for r, b in sorted(peak.items()):
    print(f'PEAK_RSS role={r} MiB={b/2**20:.0f}', file=sys.stderr)
sys.exit(p.returncode)
