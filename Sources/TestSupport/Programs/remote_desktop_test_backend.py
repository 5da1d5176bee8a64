# SPDX-License-Identifier: MIT
import sys, os
from gi.repository import Gio, GLib

portal_bus_address, mutter_bus_address, state_dir = sys.argv[1:4]
NAME = 'org.freedesktop.impl.portal.desktop.cliptabtest'
XML = '''<node>
<interface name="org.freedesktop.impl.portal.RemoteDesktop">
 <method name="CreateSession"><arg type="o" direction="in"/><arg type="o" direction="in"/><arg type="s" direction="in"/><arg type="a{sv}" direction="in"/><arg type="u" direction="out"/><arg type="a{sv}" direction="out"/></method>
 <method name="SelectDevices"><arg type="o" direction="in"/><arg type="o" direction="in"/><arg type="s" direction="in"/><arg type="a{sv}" direction="in"/><arg type="u" direction="out"/><arg type="a{sv}" direction="out"/></method>
 <method name="Start"><arg type="o" direction="in"/><arg type="o" direction="in"/><arg type="s" direction="in"/><arg type="s" direction="in"/><arg type="a{sv}" direction="in"/><arg type="u" direction="out"/><arg type="a{sv}" direction="out"/></method>
 <method name="NotifyKeyboardKeysym"><arg type="o" direction="in"/><arg type="a{sv}" direction="in"/><arg type="i" direction="in"/><arg type="u" direction="in"/></method>
 <property name="AvailableDeviceTypes" type="u" access="read"/>
 <property name="version" type="u" access="read"/>
</interface>
<interface name="org.freedesktop.impl.portal.ScreenCast">
 <method name="CreateSession"><arg type="o" direction="in"/><arg type="o" direction="in"/><arg type="s" direction="in"/><arg type="a{sv}" direction="in"/><arg type="u" direction="out"/><arg type="a{sv}" direction="out"/></method>
 <property name="AvailableSourceTypes" type="u" access="read"/>
 <property name="AvailableCursorModes" type="u" access="read"/>
 <property name="version" type="u" access="read"/>
</interface>
</node>'''
SESSION_XML = '''<node><interface name="org.freedesktop.impl.portal.Session">
 <method name="Close"/><signal name="Closed"/><property name="version" type="u" access="read"/>
</interface></node>'''

flags = Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION
portal = Gio.DBusConnection.new_for_address_sync(portal_bus_address, flags, None, None)
mutter = Gio.DBusConnection.new_for_address_sync(mutter_bus_address, flags, None, None)

def log(line):
    with open(os.path.join(state_dir, 'backend.log'), 'a') as f:
        f.write(line + '\n')

# mutter's own remote-desktop session: its keyboard is the seat's, and the portal's keys go to it.
mutter_session = mutter.call_sync('org.gnome.Mutter.RemoteDesktop', '/org/gnome/Mutter/RemoteDesktop',
    'org.gnome.Mutter.RemoteDesktop', 'CreateSession', None, GLib.VariantType('(o)'), 0, 5000, None).unpack()[0]
def mutter_call(method, args):
    mutter.call_sync('org.gnome.Mutter.RemoteDesktop', mutter_session, 'org.gnome.Mutter.RemoteDesktop.Session',
        method, args, None, 0, 5000, None)
mutter_call('Start', None)
# One key, so that the seat has a keyboard before any window binds it.
mutter_call('NotifyKeyboardKeysym', GLib.Variant('(ub)', (0xffe1, True)))
mutter_call('NotifyKeyboardKeysym', GLib.Variant('(ub)', (0xffe1, False)))

node = Gio.DBusNodeInfo.new_for_xml(XML)
session_node = Gio.DBusNodeInfo.new_for_xml(SESSION_XML)
sessions = {}  # path -> registration ids, started flag

def consent():
    try:
        with open(os.path.join(state_dir, 'consent')) as f:
            return f.read().strip()
    except FileNotFoundError:
        return 'grant'

def session_call(conn, sender, path, iface, method, params, inv):
    log('Session.Close ' + path)
    close_session(path)
    inv.return_value(None)

def close_session(path):
    s = sessions.pop(path, None)
    if s:
        portal.unregister_object(s['id'])

def method_call(conn, sender, path, iface, method, params, inv):
    args = params.unpack()
    if method == 'CreateSession':
        handle, session, app_id, options = args
        sid = portal.register_object(session, session_node.interfaces[0], session_call,
            lambda *a: GLib.Variant('u', 1), None)
        sessions[session] = {'id': sid, 'started': False}
        log('CreateSession ' + session)
        inv.return_value(GLib.Variant('(ua{sv})', (0, {})))
    elif method == 'SelectDevices':
        handle, session, app_id, options = args
        sessions[session]['restore'] = options.get('restore_data')
        sessions[session]['persist'] = options.get('persist_mode', 0)
        log('SelectDevices %s types=%s persist=%s restore=%s' % (session, options.get('types'), options.get('persist_mode'), options.get('restore_data')))
        inv.return_value(GLib.Variant('(ua{sv})', (0, {})))
    elif method == 'Start':
        handle, session, app_id, parent, options = args
        s = sessions[session]
        restore = s.get('restore')
        if restore is not None and restore[0] == 'cliptab-test' and restore[2] == 'granted':
            log('Start restored ' + session)
            return started(inv, s)
        answer = consent()
        if answer == 'ask':
            # The dialog stays up until a line on stdin answers it.
            waiting.append((inv, s))
            print('asked', flush=True)
            return
        decide(inv, s, answer)
    elif method == 'NotifyKeyboardKeysym':
        session, options, keysym, state = args
        if not sessions.get(session, {}).get('started'):
            inv.return_dbus_error('org.freedesktop.DBus.Error.Failed', 'session not started')
            return
        log('key %#x %d' % (keysym, state))
        mutter_call('NotifyKeyboardKeysym', GLib.Variant('(ub)', (keysym & 0xffffffff, state == 1)))
        inv.return_value(None)
    else:
        inv.return_dbus_error('org.freedesktop.DBus.Error.UnknownMethod', method)

waiting = []

def started(inv, s):
    s['started'] = True
    results = {'devices': GLib.Variant('u', 1)}
    if s.get('persist'):
        results['persist_mode'] = GLib.Variant('u', s['persist'])
        results['restore_data'] = GLib.Variant('(suv)', ('cliptab-test', 1, GLib.Variant('s', 'granted')))
    inv.return_value(GLib.Variant('(ua{sv})', (0, results)))

def decide(inv, s, answer):
    with open(os.path.join(state_dir, 'consents.log'), 'a') as f:
        f.write(answer + '\n')
    log('Start asked: ' + answer)
    if answer != 'grant':
        inv.return_value(GLib.Variant('(ua{sv})', (1, {})))
        return
    started(inv, s)

def answered(fd, condition):
    line = os.read(fd, 4096).decode().strip()
    if not line:
        return False
    while waiting:
        inv, s = waiting.pop(0)
        decide(inv, s, line)
    print('answered', flush=True)
    return True

GLib.unix_fd_add_full(GLib.PRIORITY_DEFAULT, 0, GLib.IOCondition.IN | GLib.IOCondition.HUP, answered)

def get_property(conn, sender, path, iface, name):
    values = {'AvailableDeviceTypes': 1, 'version': 2, 'AvailableSourceTypes': 1, 'AvailableCursorModes': 1}
    return GLib.Variant('u', values[name])

for interface in node.interfaces:
    portal.register_object('/org/freedesktop/portal/desktop', interface, method_call, get_property, None)
reply = portal.call_sync('org.freedesktop.DBus', '/org/freedesktop/DBus', 'org.freedesktop.DBus', 'RequestName',
    GLib.Variant('(su)', (NAME, 4)), None, 0, 5000, None)
print('ready', flush=True)
GLib.MainLoop().run()
