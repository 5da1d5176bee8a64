# SPDX-License-Identifier: MIT
import sys, os
from gi.repository import Gio, GLib

bus_address, state_dir = sys.argv[1:3]
XML = '''<node>
<interface name="org.freedesktop.host.portal.Registry">
 <method name="Register"><arg type="s" direction="in"/><arg type="a{sv}" direction="in"/></method>
 <property name="version" type="u" access="read"/>
</interface>
<interface name="org.freedesktop.portal.GlobalShortcuts">
 <method name="CreateSession"><arg type="a{sv}" direction="in"/><arg type="o" direction="out"/></method>
 <method name="BindShortcuts"><arg type="o" direction="in"/><arg type="a(sa{sv})" direction="in"/><arg type="s" direction="in"/><arg type="a{sv}" direction="in"/><arg type="o" direction="out"/></method>
 <property name="version" type="u" access="read"/>
</interface>
</node>'''
flags = Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION
bus = Gio.DBusConnection.new_for_address_sync(bus_address, flags, None, None)
node = Gio.DBusNodeInfo.new_for_xml(XML)
app_ids = {}  # sender -> registered app id
called = set()  # senders that made a portal call

def log(line):
    with open(os.path.join(state_dir, 'frontend.log'), 'a') as f:
        f.write(line + '\n')

def sender_part(sender):
    return sender[1:].replace('.', '_')

def respond(sender, token, results):
    path = '/org/freedesktop/portal/desktop/request/%s/%s' % (sender_part(sender), token)
    def emit():
        bus.emit_signal(sender, path, 'org.freedesktop.portal.Request', 'Response',
            GLib.Variant('(ua{sv})', (0, results)))
        return False
    GLib.idle_add(emit)
    return GLib.Variant('(o)', (path,))

def method_call(conn, sender, path, iface, method, params, inv):
    args = params.unpack()
    if method == 'Register':
        if sender in app_ids or sender in called:
            log('Register refused')
            inv.return_dbus_error('org.freedesktop.portal.Error.Failed', 'Connection already associated')
            return
        app_ids[sender] = args[0]
        log('Register ' + args[0])
        inv.return_value(None)
        return
    called.add(sender)
    if method == 'CreateSession':
        options = args[0]
        log('CreateSession app_id=' + app_ids.get(sender, ''))
        session = '/org/freedesktop/portal/desktop/session/%s/%s' % (sender_part(sender), options['session_handle_token'])
        inv.return_value(respond(sender, options['handle_token'], {'session_handle': GLib.Variant('s', session)}))
    elif method == 'BindShortcuts':
        session, shortcuts, parent, options = args
        log('BindShortcuts ' + ' '.join('%s=%s' % (i, o.get('preferred_trigger')) for i, o in shortcuts))
        listed = [(i, {'trigger_description': GLib.Variant('s', o.get('preferred_trigger', ''))}) for i, o in shortcuts]
        inv.return_value(respond(sender, options['handle_token'], {'shortcuts': GLib.Variant('a(sa{sv})', listed)}))

for interface in node.interfaces:
    bus.register_object('/org/freedesktop/portal/desktop', interface, method_call,
        lambda *a: GLib.Variant('u', 1), None)
bus.call_sync('org.freedesktop.DBus', '/org/freedesktop/DBus', 'org.freedesktop.DBus', 'RequestName',
    GLib.Variant('(su)', ('org.freedesktop.portal.Desktop', 4)), None, 0, 5000, None)
print('ready', flush=True)
GLib.MainLoop().run()
