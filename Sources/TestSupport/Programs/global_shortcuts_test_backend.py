# SPDX-License-Identifier: MIT
import sys, os, time
from gi.repository import Gio, GLib

bus_address, state_dir = sys.argv[1:3]
NAME = 'org.freedesktop.impl.portal.desktop.cliptabkeys'
IFACE = 'org.freedesktop.impl.portal.GlobalShortcuts'
XML = '''<node>
<interface name="org.freedesktop.impl.portal.GlobalShortcuts">
 <method name="CreateSession"><arg type="o" direction="in"/><arg type="o" direction="in"/><arg type="s" direction="in"/><arg type="a{sv}" direction="in"/><arg type="u" direction="out"/><arg type="a{sv}" direction="out"/></method>
 <method name="BindShortcuts"><arg type="o" direction="in"/><arg type="o" direction="in"/><arg type="a(sa{sv})" direction="in"/><arg type="s" direction="in"/><arg type="a{sv}" direction="in"/><arg type="u" direction="out"/><arg type="a{sv}" direction="out"/></method>
 <method name="ListShortcuts"><arg type="o" direction="in"/><arg type="o" direction="in"/><arg type="u" direction="out"/><arg type="a{sv}" direction="out"/></method>
 <signal name="Activated"><arg type="o"/><arg type="s"/><arg type="t"/><arg type="a{sv}"/></signal>
 <signal name="Deactivated"><arg type="o"/><arg type="s"/><arg type="t"/><arg type="a{sv}"/></signal>
 <signal name="ShortcutsChanged"><arg type="o"/><arg type="a(sa{sv})"/></signal>
 <property name="version" type="u" access="read"/>
</interface>
</node>'''
SESSION_XML = '''<node><interface name="org.freedesktop.impl.portal.Session">
 <method name="Close"/><signal name="Closed"/><property name="version" type="u" access="read"/>
</interface></node>'''

flags = Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION
bus = Gio.DBusConnection.new_for_address_sync(bus_address, flags, None, None)
node = Gio.DBusNodeInfo.new_for_xml(XML)
session_node = Gio.DBusNodeInfo.new_for_xml(SESSION_XML)
sessions = {}  # path -> registration id
bound = {}  # id -> trigger description, of the last session

def log(line):
    with open(os.path.join(state_dir, 'backend.log'), 'a') as f:
        f.write(line + '\n')

def answer():
    try:
        with open(os.path.join(state_dir, 'answer')) as f:
            return f.read().strip()
    except FileNotFoundError:
        return 'grant'

def session_call(conn, sender, path, iface, method, params, inv):
    log('Session.Close')
    rid = sessions.pop(path, None)
    if rid is not None:
        bus.unregister_object(rid)
    inv.return_value(None)

def listed():
    return [(i, {'description': GLib.Variant('s', i), 'trigger_description': GLib.Variant('s', t)})
            for i, t in bound.items()]

def method_call(conn, sender, path, iface, method, params, inv):
    args = params.unpack()
    if method == 'CreateSession':
        handle, session, app_id, options = args
        sessions[session] = bus.register_object(session, session_node.interfaces[0], session_call,
            lambda *a: GLib.Variant('u', 1), None)
        log('CreateSession app_id=' + app_id)
        inv.return_value(GLib.Variant('(ua{sv})', (0, {})))
    elif method == 'BindShortcuts':
        handle, session, shortcuts, parent, options = args
        log('BindShortcuts ' + ' '.join('%s=%s' % (i, o.get('preferred_trigger')) for i, o in shortcuts))
        if answer() != 'grant':
            log('BindShortcuts cancelled')
            inv.return_value(GLib.Variant('(ua{sv})', (1, {})))
            return
        bound.clear()
        for i, o in shortcuts:
            bound[i] = o.get('preferred_trigger') or 'Unassigned'
        inv.return_value(GLib.Variant('(ua{sv})', (0, {'shortcuts': GLib.Variant('a(sa{sv})', listed())})))
    elif method == 'ListShortcuts':
        inv.return_value(GLib.Variant('(ua{sv})', (0, {'shortcuts': GLib.Variant('a(sa{sv})', listed())})))
    else:
        inv.return_dbus_error('org.freedesktop.DBus.Error.UnknownMethod', method)

def get_property(conn, sender, path, iface, name):
    return GLib.Variant('u', 1)

def emit(member, args):
    bus.emit_signal(None, '/org/freedesktop/portal/desktop', IFACE, member, args)

def command(fd, condition):
    line = os.read(fd, 4096).decode()
    if not line:
        return False
    for words in (l.split() for l in line.splitlines() if l.strip()):
        last = list(sessions)[-1] if sessions else '/'
        stamp = int(time.monotonic() * 1000)
        if words[0] in ('activate', 'deactivate'):
            member = 'Activated' if words[0] == 'activate' else 'Deactivated'
            emit(member, GLib.Variant('(osta{sv})', (last, words[1], stamp, {})))
        elif words[0] == 'change':
            bound[words[1]] = words[2]
            emit('ShortcutsChanged', GLib.Variant('(oa(sa{sv}))', (last, listed())))
        elif words[0] == 'close':
            for path, rid in list(sessions.items()):
                bus.emit_signal(None, path, 'org.freedesktop.impl.portal.Session', 'Closed', None)
                bus.unregister_object(rid)
            sessions.clear()
        bus.flush_sync(None)
        print('done', flush=True)
    return True

GLib.unix_fd_add_full(GLib.PRIORITY_DEFAULT, 0, GLib.IOCondition.IN | GLib.IOCondition.HUP, command)
bus.register_object('/org/freedesktop/portal/desktop', node.interfaces[0], method_call, get_property, None)
bus.call_sync('org.freedesktop.DBus', '/org/freedesktop/DBus', 'org.freedesktop.DBus', 'RequestName',
    GLib.Variant('(su)', (NAME, 4)), None, 0, 5000, None)
print('ready', flush=True)
GLib.MainLoop().run()
