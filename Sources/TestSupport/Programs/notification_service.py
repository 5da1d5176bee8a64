# SPDX-License-Identifier: MIT
import sys
from gi.repository import Gio, GLib
XML = '''<node><interface name="org.freedesktop.Notifications">
<method name="Notify"><arg type="s" direction="in"/><arg type="u" direction="in"/>
<arg type="s" direction="in"/><arg type="s" direction="in"/><arg type="s" direction="in"/>
<arg type="as" direction="in"/><arg type="a{sv}" direction="in"/><arg type="i" direction="in"/>
<arg type="u" direction="out"/></method>
<method name="GetCapabilities"><arg type="as" direction="out"/></method>
</interface></node>'''
node = Gio.DBusNodeInfo.new_for_xml(XML)
count = [0]
def flat(text):
    return text.replace('\\', '\\\\').replace('\n', '\\n').replace('\t', '\\t')
def call(connection, sender, path, interface, method, parameters, invocation):
    if method == 'Notify':
        args = parameters.unpack()
        count[0] += 1
        print(flat(args[3]) + '\t' + flat(args[4]) + '\t' + str(args[6].get('urgency', '')), flush=True)
        invocation.return_value(GLib.Variant('(u)', (count[0],)))
    else:
        invocation.return_value(GLib.Variant('(as)', (['body'],)))
bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)
bus.register_object('/org/freedesktop/Notifications', node.interfaces[0], call, None, None)
Gio.bus_own_name_on_connection(
    bus, 'org.freedesktop.Notifications', Gio.BusNameOwnerFlags.NONE,
    lambda connection, name: print('ready', flush=True), None)
GLib.MainLoop().run()
