#!/usr/bin/env python3
"""exit_status.py WANT COMMAND...: run COMMAND (its output passes through) and
exit 0 exactly when its exit status is WANT (lit's `not` only says non-zero)."""
import subprocess
import sys

want = int(sys.argv[1])
got = subprocess.call(sys.argv[2:])
if got != want:
    sys.exit("exit_status: %s exited %d, expected %d" % (sys.argv[2], got, want))
