/**
 * `{free_port:8091}` in the bundled demo (inside a string, or as a whole string for a number): 8091 when it is free on 127.0.0.1, else a port the
 * system picks, so the demo runs next to whatever already listens there (and says so).
 */
import { createServer } from 'node:net';

const PLACEHOLDER = /\{free_port:(\d{1,5})\}/g;
const QUOTED = /"\{free_port:(\d{1,5})\}"/g;

function listenable(port: number): Promise<number | null> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(null));
    server.listen(port, '127.0.0.1', () => {
      const address = server.address();
      const bound = typeof address === 'object' && address !== null ? address.port : null;
      server.close(() => resolve(bound));
    });
  });
}

/** The text with every placeholder resolved, and the ports that had to move. */
export async function resolveFreePorts(
  text: string,
): Promise<{ text: string; moved: Array<{ wanted: number; used: number }> }> {
  const wanted = [...new Set([...text.matchAll(PLACEHOLDER)].map((match) => Number(match[1])))];
  const chosen = new Map<number, number>();
  const moved: Array<{ wanted: number; used: number }> = [];
  for (const port of wanted) {
    const free = (await listenable(port)) ?? (await listenable(0));
    if (free === null) throw new Error(`no free port for the demo's ${port}`);
    chosen.set(port, free);
    if (free !== port) moved.push({ wanted: port, used: free });
  }
  const portOf = (port: string): string => String(chosen.get(Number(port)));
  return {
    // A placeholder that is a whole JSON string ("{free_port:8091}") becomes a number.
    text: text
      .replace(QUOTED, (_match, port: string) => portOf(port))
      .replace(PLACEHOLDER, (_match, port: string) => portOf(port)),
    moved,
  };
}
