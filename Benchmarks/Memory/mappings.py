#!/usr/bin/env python3
"""Where a process's resident memory is (issue #50): /proc/<pid>/smaps summed per mapping, the
file-backed part per file (the binary, each shared library) and the anonymous part (heap,
thread stacks, malloc arenas) in one line. Run it against `sesame serve` idle or under load:

    python3 Benchmarks/Memory/mappings.py $(pgrep -f 'sesame serve') [--top 15]

Prints MB per mapping, largest first, with each one's share of the resident total.
"""
import argparse, collections, sys


def mappings(pid):
    resident = collections.Counter()
    anonymous = 0
    name = None
    with open(f"/proc/{pid}/smaps") as smaps:
        for line in smaps:
            fields = line.split()
            if not fields:
                continue
            if "-" in fields[0] and len(fields) >= 5 and not fields[0].endswith(":"):
                name = fields[5] if len(fields) >= 6 else "[anonymous]"
            elif fields[0] == "Rss:":
                resident[name] += int(fields[1])
            elif fields[0] == "Anonymous:":
                anonymous += int(fields[1])
    return resident, anonymous


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("pid", type=int)
    parser.add_argument("--top", type=int, default=15)
    arguments = parser.parse_args()
    resident, anonymous = mappings(arguments.pid)
    total = sum(resident.values())
    files = {name: kb for name, kb in resident.items() if name.startswith("/")}
    print(f"resident {total / 1024:.1f} MB: anonymous {anonymous / 1024:.1f} MB "
          f"(heap, stacks, arenas, and private copies of file pages), file-backed {sum(files.values()) / 1024:.1f} MB")
    for name, kb in sorted(resident.items(), key=lambda item: -item[1])[:arguments.top]:
        print(f"{kb / 1024:8.1f} MB {100 * kb / total:5.1f}%  {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
