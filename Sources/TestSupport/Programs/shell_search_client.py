# SPDX-License-Identifier: MIT
import json, sys
from gi.repository import Gio, GLib
bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)
proxies = {}
for line in sys.stdin:
    path, interface, method, signature, arguments = json.loads(line)
    key = (path, interface)
    if key not in proxies:
        proxies[key] = Gio.DBusProxy.new_sync(
            bus, Gio.DBusProxyFlags.DO_NOT_LOAD_PROPERTIES | Gio.DBusProxyFlags.DO_NOT_CONNECT_SIGNALS,
            None, sys.argv[1], path, interface, None)
    try:
        reply = proxies[key].call_sync(
            method, GLib.Variant(signature, tuple(arguments)), Gio.DBusCallFlags.NONE, 20000, None)
        print(json.dumps({"ok": list(reply.unpack())}), flush=True)
    except GLib.Error as error:
        print(json.dumps({"error": Gio.DBusError.get_remote_error(error) or "",
                          "message": error.message}), flush=True)
