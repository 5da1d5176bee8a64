// SPDX-License-Identifier: MIT
// cliptab: the command line of CliptabCommandLine, run.
import CliptabCommandLine
import Glibc

exit(runCommandLine())
