/**
 * The one place the rest of the code reaches uWebSockets.js: the build is picked by
 * uws-loader.ts the first time it is needed, and only the 20.30 API (the oldest build we load)
 * is visible here, so code written against it runs on every build.
 */
import { loadUwsBuild, type UwsBuild, type UwsModule } from './uws-loader.js';

export type {
  HttpRequest,
  HttpResponse,
  TemplatedApp,
  WebSocket,
  WebSocketBehavior,
  us_listen_socket,
} from 'uws-floor';
import type { TemplatedApp, us_listen_socket } from 'uws-floor';

let loaded: UwsBuild | undefined;

/** The build in use, loaded on first call; throws UwsUnavailableError when none loads. */
export function uwsBuild(): UwsBuild {
  loaded ??= loadUwsBuild();
  return loaded;
}

/** The uWS module of the build in use. */
export function uws(): UwsModule {
  return uwsBuild().module;
}

/** Create an app (plain HTTP; TLS is left to a reverse proxy in front of the host). */
export function createApp(): TemplatedApp {
  return uws().App();
}

/** Listen on host:port (0 picks a free port); resolves with the socket and the bound port. */
export function listen(
  app: TemplatedApp,
  host: string,
  port: number,
): Promise<{ socket: us_listen_socket; port: number }> {
  return new Promise((resolve, reject) => {
    app.listen(host, port, (socket) => {
      if (socket === false) {
        reject(new Error(`cannot listen on ${host}:${port} (address in use or not available)`));
        return;
      }
      resolve({ socket, port: uws().us_socket_local_port(socket) });
    });
  });
}

/** Close a listen socket: new connections are refused, open ones finish. */
export function closeListenSocket(socket: us_listen_socket): void {
  uws().us_listen_socket_close(socket);
}
