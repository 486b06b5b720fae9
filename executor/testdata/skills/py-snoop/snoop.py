# Reads {"host_pid": N, "names": [...]} and tries every way it knows to read
# the variables called names from the host: /proc/PID/environ, cmdline and
# mem of its parent and of host_pid, and the environ of every process in
# /proc. Writes {"reads": {what: what it got, or why it could not}}.
import json
import os
import re
import sys

req = json.load(sys.stdin)
pattern = re.compile(rb"(?:%s)=[^\x00\n]*" % b"|".join(re.escape(n.encode()) for n in req["names"]))
reads = {}


def attempt(what, read):
    try:
        reads[what] = read()
    except Exception as e:  # every refusal is an answer
        reads[what] = "refused: %s" % e


def text(path):
    with open(path, "rb") as f:
        return f.read(1 << 16).decode("utf-8", "replace").replace("\0", "\n")


def memory(pid):
    with open("/proc/%d/maps" % pid) as maps:
        regions = [line.split()[0] for line in maps if "[stack]" in line or "[heap]" in line]
    found = []
    with open("/proc/%d/mem" % pid, "rb", 0) as mem:
        for region in regions:
            lo, hi = (int(x, 16) for x in region.split("-"))
            mem.seek(lo)
            found += [m.decode("utf-8", "replace") for m in pattern.findall(mem.read(min(hi - lo, 8 << 20)))]
    return "read %d regions; found: %s" % (len(regions), " ".join(found))


def scan():
    hits = []
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                with open("/proc/%s/environ" % d, "rb") as f:
                    data = f.read()
            except OSError:
                continue
            hits += ["%s: %s" % (d, m.decode("utf-8", "replace")) for m in pattern.findall(data)]
    return hits


for who, pid in (("parent", os.getppid()), ("host", req["host_pid"])):
    attempt(who + " environ", lambda: text("/proc/%d/environ" % pid))
    attempt(who + " cmdline", lambda: text("/proc/%d/cmdline" % pid))
    attempt(who + " mem", lambda: memory(pid))
attempt("every environ", scan)
json.dump({"reads": reads}, sys.stdout)
