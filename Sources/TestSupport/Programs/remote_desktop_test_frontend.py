# SPDX-License-Identifier: MIT
import sys, os, uuid
from gi.repository import Gio, GLib

bus_address, mutter_bus_address, state_dir = sys.argv[1:4]
XML = '''<node>
<interface name="org.freedesktop.portal.RemoteDesktop">
 <method name="CreateSession"><arg type="a{sv}" direction="in"/><arg type="o" direction="out"/></method>
 <method name="SelectDevices"><arg type="o" direction="in"/><arg type="a{sv}" direction="in"/><arg type="o" direction="out"/></method>
 <method name="Start"><arg type="o" direction="in"/><arg type="s" direction="in"/><arg type="a{sv}" direction="in"/><arg type="o" direction="out"/></method>
 <method name="NotifyKeyboardKeysym"><arg type="o" direction="in"/><arg type="a{sv}" direction="in"/><arg type="i" direction="in"/><arg type="u" direction="in"/></method>
 <property name="AvailableDeviceTypes" type="u" access="read"/>
 <property name="version" type="u" access="read"/>
</interface>
<interface name="org.freedesktop.portal.Session"><method name="Close"/><signal name="Closed"/></interface>
<interface name="org.freedesktop.host.portal.Registry">
 <method name="Register"><arg type="s" direction="in"/><arg type="a{sv}" direction="in"/></method>
</interface>
</node>'''
flags = Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION
bus = Gio.DBusConnection.new_for_address_sync(bus_address, flags, None, None)
mutter = Gio.DBusConnection.new_for_address_sync(mutter_bus_address, flags, None, None)
rd = 'org.gnome.Mutter.RemoteDesktop'
mutter_session = mutter.call_sync(rd, '/org/gnome/Mutter/RemoteDesktop', rd, 'CreateSession', None,
    GLib.VariantType('(o)'), 0, 5000, None).unpack()[0]
def mutter_key(keysym, pressed):
    mutter.call_sync(rd, mutter_session, rd + '.Session', 'NotifyKeyboardKeysym',
        GLib.Variant('(ub)', (keysym, pressed)), None, 0, 5000, None)
mutter.call_sync(rd, mutter_session, rd + '.Session', 'Start', None, None, 0, 5000, None)
mutter_key(0xffe1, True)
mutter_key(0xffe1, False)

def log(name, line):
    with open(os.path.join(state_dir, name), 'a') as f:
        f.write(line + '\n')

node = Gio.DBusNodeInfo.new_for_xml(XML)
tokens = set()
sessions = {}

def sender_part(sender):
    return sender[1:].replace('.', '_')

def respond(sender, token, code, results):
    path = '/org/freedesktop/portal/desktop/request/%s/%s' % (sender_part(sender), token)
    def emit():
        bus.emit_signal(sender, path, 'org.freedesktop.portal.Request', 'Response',
            GLib.Variant('(ua{sv})', (code, results)))
        return False
    GLib.idle_add(emit)
    return GLib.Variant('(o)', (path,))

def session_call(conn, sender, path, iface, method, params, inv):
    log('frontend.log', 'Session.Close')
    s = sessions.pop(path, None)
    if s:
        bus.unregister_object(s['id'])
    inv.return_value(None)

def registry_call(conn, sender, path, iface, method, params, inv):
    log('frontend.log', 'Register ' + params.unpack()[0])
    inv.return_value(None)

def close_all(fd, condition):
    line = os.read(fd, 4096).decode()
    if not line:
        return False
    for path, s in list(sessions.items()):
        bus.emit_signal(s['sender'], path, 'org.freedesktop.portal.Session', 'Closed', None)
        bus.unregister_object(s['id'])
    sessions.clear()
    bus.flush_sync(None)
    print('closed', flush=True)
    return True

GLib.unix_fd_add_full(GLib.PRIORITY_DEFAULT, 0, GLib.IOCondition.IN | GLib.IOCondition.HUP, close_all)

def method_call(conn, sender, path, iface, method, params, inv):
    args = params.unpack()
    if method == 'CreateSession':
        options = args[0]
        session = '/org/freedesktop/portal/desktop/session/%s/%s' % (sender_part(sender), options['session_handle_token'])
        sessions[session] = {'id': bus.register_object(session, node.interfaces[1], session_call, None, None),
            'sender': sender}
        inv.return_value(respond(sender, options['handle_token'], 0, {'session_handle': GLib.Variant('s', session)}))
    elif method == 'SelectDevices':
        session, options = args
        sessions[session]['token'] = options.get('restore_token')
        log('frontend.log', 'SelectDevices types=%s persist_mode=%s restore_token=%s' % (
            options.get('types'), options.get('persist_mode'), options.get('restore_token')))
        if options.get('restore_token') is not None and options['restore_token'] not in tokens:
            log('frontend.log', 'SelectDevices refused the token')
            inv.return_value(respond(sender, options['handle_token'], 2, {}))
            return
        inv.return_value(respond(sender, options['handle_token'], 0, {}))
    elif method == 'Start':
        session, parent, options = args
        token = sessions[session].get('token')
        if token in tokens:
            tokens.discard(token)
        else:
            log('consents.log', 'grant')
        new = str(uuid.uuid4())
        tokens.add(new)
        log('frontend.log', 'Start restore_token=' + new)
        sessions[session]['started'] = True
        inv.return_value(respond(sender, options['handle_token'], 0, {
            'devices': GLib.Variant('u', 1), 'restore_token': GLib.Variant('s', new),
            'persist_mode': GLib.Variant('u', 2)}))
    elif method == 'NotifyKeyboardKeysym':
        session, options, keysym, state = args
        if not sessions.get(session, {}).get('started'):
            inv.return_dbus_error('org.freedesktop.DBus.Error.Failed', 'session not started')
            return
        mutter_key(keysym & 0xffffffff, state == 1)
        inv.return_value(None)

asked_version = set()

def get_property(conn, sender, path, iface, name):
    if name == 'version' and sender not in asked_version:
        asked_version.add(sender)
        log('frontend.log', 'Get version')
    return GLib.Variant('u', {'AvailableDeviceTypes': 1, 'version': 2}[name])

bus.register_object('/org/freedesktop/portal/desktop', node.interfaces[0], method_call, get_property, None)
bus.register_object('/org/freedesktop/portal/desktop', node.interfaces[2], registry_call, None, None)
bus.call_sync('org.freedesktop.DBus', '/org/freedesktop/DBus', 'org.freedesktop.DBus', 'RequestName',
    GLib.Variant('(su)', ('org.freedesktop.portal.Desktop', 4)), None, 0, 5000, None)
print('ready', flush=True)
GLib.MainLoop().run()
