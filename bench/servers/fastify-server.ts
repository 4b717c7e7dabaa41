/**
 * The peer of the HTTP benchmark: Fastify serving each path of the bodies file, the way a
 * Fastify user would write the route (return the object; no logger). Prints `listening PORT`.
 */
import Fastify from 'fastify';
import { readBodies } from './bodies.js';

const app = Fastify({ logger: false });
for (const [path, body] of readBodies()) app.get(path, () => body);
const address = await app.listen({ host: '127.0.0.1', port: 0 });
process.stdout.write(`listening ${new URL(address).port}\n`);
