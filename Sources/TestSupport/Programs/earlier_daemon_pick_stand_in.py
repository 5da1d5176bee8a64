# SPDX-License-Identifier: MIT
from gi.repository import Gio, GLib
def args(direction, *pairs):
    return ''.join('<arg name="%s" type="%s" direction="%s"/>' % (n, t, direction) for n, t in pairs)
cell = (('table', 's'), ('section', 'i'), ('row', 'i'))
xml = ('<node><interface name="io.github.cliptab.Cliptab1">'
       + '<method name="GetSections">' + args('in', ('table', 's')) + args('out', ('s', 'a(ssu)')) + '</method>'
       + '<method name="GetRows">' + args('in', ('table', 's'), ('section', 'i'), ('offset', 'u'), ('limit', 'u'))
       + args('out', ('rows', 'a(ts)')) + '</method>'
       + '<method name="Locate">' + args('in', ('id', 't')) + args('out', *cell) + '</method>'
       + '<method name="GetCell">' + args('in', *cell) + args('out', ('text', 's')) + '</method>'
       + '</interface></node>')
rows = [(7, 'first row'), (8, 'second row')]
def call(connection, sender, path, interface, method, parameters, invocation):
    if method == 'GetSections':
        invocation.return_value(GLib.Variant('(a(ssu))', ([('', '', len(rows))],)))
    elif method == 'GetRows':
        invocation.return_value(GLib.Variant('(a(ts))', (rows,)))
    elif method == 'Locate':
        invocation.return_value(GLib.Variant('(sii)', ('t', 0, parameters[0] - 7)))
    else:
        invocation.return_value(GLib.Variant('(s)', (rows[parameters[2]][1],)))
