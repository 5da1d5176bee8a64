// SPDX-License-Identifier: MIT
import TestSupport

/// A misbehaving X selection requestor: Python ctypes over libX11, run as
/// `python3 -c hostileRequestor MODE [ARGS]`, printing one line of results.
///
/// Modes: `unknown N` asks for N targets nobody offers; `stall SECONDS` starts an INCR
/// transfer, prints its result at once and never reads a chunk; `destroy N` starts N INCR transfers, asks for the next
/// chunk and destroys its window; `multiple` sends MULTIPLE requests with garbage
/// parameters; `flood N TARGET` sends N requests at once and counts the answers;
/// `own-silently SECONDS` takes the clipboard and never answers a request; it prints a line
/// for each request that comes.
let hostileRequestor =
    xlibPythonPrelude + HelperPrograms.source("hostile_requestor.py")
