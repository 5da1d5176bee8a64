# SPDX-License-Identifier: MIT
import collections, os, sys
import gi
gi.require_version('Gio', '2.0')
from gi.repository import Gio, GLib
address, destination, path, interface, member, body = sys.argv[1:7]
calls, per_call, window = int(sys.argv[7]), int(sys.argv[8]), int(sys.argv[9])
flags = Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION
connection = Gio.DBusConnection.new_for_address_sync(address, flags, None, None)
descriptor = os.open(sys.argv[10], os.O_RDONLY)
arguments = GLib.Variant.parse(None, body, None, None)
loop = GLib.MainLoop()
outcomes = collections.Counter()
sent = 0
def send():
    global sent
    message = Gio.DBusMessage.new_method_call(destination, path, interface, member)
    message.set_body(arguments)
    descriptors = Gio.UnixFDList.new()
    for _ in range(per_call):
        descriptors.append(descriptor)
    message.set_unix_fd_list(descriptors)
    sent += 1
    connection.send_message_with_reply(message, Gio.DBusSendMessageFlags.NONE, 60000, None, answered, None)
def answered(source, result, data):
    try:
        reply = source.send_message_with_reply_finish(result)
        if reply.get_message_type() == Gio.DBusMessageType.ERROR:
            outcomes[reply.get_error_name()] += 1
        else:
            outcomes['answered'] += 1
    except GLib.Error as error:
        outcomes[error.message[:80]] += 1
    if sent < calls:
        send()
    elif sum(outcomes.values()) == calls:
        loop.quit()
for _ in range(min(window, calls)):
    send()
loop.run()
names = list(outcomes)
if len(names) == 1 and names[0] == 'org.freedesktop.DBus.Error.NotSupported':
    print('done: %d refused (NotSupported)' % outcomes[names[0]], flush=True)
else:
    print('failed: ' + ', '.join('%d %s' % (n, k) for k, n in outcomes.most_common()), flush=True)
