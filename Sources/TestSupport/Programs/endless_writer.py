# SPDX-License-Identifier: MIT
# A launcher's output that never ends: endless_writer.py TEXT COUNTFILE.
#
# Writes TEXT (each N a newline) to standard output forever; when the pipe breaks, writes
# to the file COUNTFILE how many bytes it managed to write.
import os, sys
chunk, count = sys.argv[1].replace('N', '\n').encode() * 65536, 0
try:
    while True:
        count += os.write(1, chunk)
except BrokenPipeError:
    open(sys.argv[2], 'w').write(str(count))
