#!/usr/bin/env python3
"""The MPI model is the one place that spells MPI's names.

Fails, naming the file and line, when C++ code of ompi-opt outside
tool/lib/mpi/ writes an MPI function, handle or constant as a string literal
("MPI_Wait"): such code writes mpi::MPI_Wait (tool/lib/mpi/Names.h) or asks
the model what a call does. Comments and longer messages are not names.
"""
import pathlib
import re
import sys

NAME = re.compile(r'"(P?MPI_[A-Za-z0-9_]*)"')


def code_of(line, in_block):
    """The line without comments; whether a /* comment is still open."""
    out, i, quoted = [], 0, False
    while i < len(line):
        if in_block:
            end = line.find('*/', i)
            if end < 0:
                return ''.join(out), True
            i, in_block = end + 2, False
            continue
        c = line[i]
        if quoted and c == '\\':
            out.append(line[i:i + 2])
            i += 2
            continue
        if c == '"':
            quoted = not quoted
        elif not quoted and line.startswith('//', i):
            break
        elif not quoted and line.startswith('/*', i):
            in_block, i = True, i + 2
            continue
        out.append(c)
        i += 1
    return ''.join(out), in_block


def main():
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else '.') / 'tool'
    files = sorted(root.glob('lib/**/*.cpp')) + sorted(root.glob('lib/**/*.h')) + [root / 'main.cpp']
    bad = 0
    for path in files:
        if 'mpi' in path.relative_to(root).parts[1:2]:
            continue
        in_block = False
        for n, line in enumerate(path.read_text().splitlines(), 1):
            code, in_block = code_of(line, in_block)
            for m in NAME.finditer(code):
                print(f'{path}:{n}: "{m.group(1)}" spelled outside the MPI model: '
                      f'use mpi::{m.group(1)} (mpi/Names.h) or a query of the model')
                bad += 1
    if bad:
        print(f'{bad} MPI names spelled outside tool/lib/mpi/')
        return 1
    print(f'{len(files)} files: every MPI name comes from the model')
    return 0


if __name__ == '__main__':
    sys.exit(main())
