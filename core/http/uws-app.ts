/**
 * The one place uWebSockets.js is loaded. The pinned package silently falls back to a slow
 * pure-JS copy when its native binary cannot load, so we check which one we got.
 */
import uWS from 'uWebSockets.js';

export type {
  HttpRequest,
  HttpResponse,
  TemplatedApp,
  WebSocket,
  WebSocketBehavior,
  us_listen_socket,
} from 'uWebSockets.js';

/** True when the native uWS binary is in use (not the JS fallback). */
export function isNativeUws(): boolean {
  // Native functions print as `function () { [native code] }`; the fallback is plain JS.
  return String(uWS.App).includes('[native code]');
}

/** Create an app (plain HTTP; TLS is left to a reverse proxy in front of the host). */
export function createApp(): uWS.TemplatedApp {
  return uWS.App();
}

/** Listen on host:port (0 picks a free port); resolves with the socket and the bound port. */
export function listen(
  app: uWS.TemplatedApp,
  host: string,
  port: number,
): Promise<{ socket: uWS.us_listen_socket; port: number }> {
  return new Promise((resolve, reject) => {
    app.listen(host, port, (socket) => {
      if (socket === false) {
        reject(new Error(`cannot listen on ${host}:${port} (address in use or not available)`));
        return;
      }
      resolve({ socket, port: uWS.us_socket_local_port(socket) });
    });
  });
}

/** Close a listen socket: new connections are refused, open ones finish. */
export function closeListenSocket(socket: uWS.us_listen_socket): void {
  uWS.us_listen_socket_close(socket);
}
