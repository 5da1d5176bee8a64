# SPDX-License-Identifier: MIT
from gi.repository import Gio, GLib
arguments = ''.join('<arg name="%s" type="%s" direction="in"/>' % pair
                    for pair in (('table', 's'), ('section', 'i'), ('row', 'i')))
xml = ('<node><interface name="io.github.cliptab.Cliptab1">'
       + ''.join('<method name="%s">%s<arg name="text" type="s" direction="out"/></method>'
                 % (name, arguments) for name in ('Copy', 'Cut'))
       + '<method name="GetSecret"><arg name="table" type="s" direction="in"/>'
       + '<arg name="secret" type="b" direction="out"/></method></interface></node>')
def call(connection, sender, path, interface, method, parameters, invocation):
    if method == 'GetSecret':
        invocation.return_value(GLib.Variant('(b)', (parameters[0] == 'vault',)))
    else:
        invocation.return_value(GLib.Variant('(s)', ('%s of %s' % (method.lower(), parameters[0]),)))
