# SPDX-License-Identifier: MIT
# A stand-in cliptabd (Gio) for a daemon slow to send rows: held_rows_stand_in.py LOG.
#
# It takes the daemon's bus name and answers a table of one section of three rows: the
# outline, names and secrecy at once, while every request for rows is held unanswered. It
# appends a line to the file LOG for each held request (the method's name) and `owned` once
# the name is its own.
import sys, gi
gi.require_version('Gio', '2.0')
from gi.repository import Gio, GLib
log = sys.argv[1]
node = Gio.DBusNodeInfo.new_for_xml('''<node><interface name="io.github.cliptab.Cliptab1">
  <method name="GetSections"><arg type="s" direction="in"/><arg type="a(ssu)" direction="out"/></method>
  <method name="GetRowNames"><arg type="s" direction="in"/><arg type="a(ts)" direction="out"/></method>
  <method name="GetSecret"><arg type="s" direction="in"/><arg type="b" direction="out"/></method>
  <method name="GetRows"><arg type="s" direction="in"/><arg type="i" direction="in"/>
    <arg type="u" direction="in"/><arg type="u" direction="in"/><arg type="a(ts)" direction="out"/></method>
  <method name="GetRowPreviews"><arg type="s" direction="in"/><arg type="i" direction="in"/>
    <arg type="u" direction="in"/><arg type="u" direction="in"/><arg type="u" direction="in"/>
    <arg type="a(ts)" direction="out"/></method>
</interface></node>''')
held = []


def note(text):
    with open(log, 'a') as f:
        f.write(text + '\n')


def call(connection, sender, path, interface, method, parameters, invocation):
    if method == 'GetSections':
        invocation.return_value(GLib.Variant('(a(ssu))', ([('', '', 3)],)))
    elif method == 'GetRowNames':
        invocation.return_value(GLib.Variant('(a(ts))', ([],)))
    elif method == 'GetSecret':
        invocation.return_value(GLib.Variant('(b)', (False,)))
    else:
        held.append(invocation)
        note(method)


def bus(connection, name):
    connection.register_object('/io/github/cliptab/Cliptab1', node.interfaces[0], call, None, None)


Gio.bus_own_name(Gio.BusType.SESSION, 'io.github.cliptab.Cliptab1', Gio.BusNameOwnerFlags.NONE,
                 bus, lambda connection, name: note('owned'), None)
GLib.MainLoop().run()
