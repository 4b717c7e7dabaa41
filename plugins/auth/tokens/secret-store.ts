/**
 * The JWT signing secret (docs/decisions.md §7): 256 random bits, created on first start in the plugin's
 * data folder with mode 0600, never rotated automatically. Deleting the file signs everyone out.
 */
import { randomBytes } from 'node:crypto';
import { chmod, stat } from 'node:fs/promises';
import type { Logger, PluginStorage } from '../../../sdk/index.js';

/** File name inside the plugin's storage folder. */
export const SECRET_FILE = 'jwt-secret';
const SECRET_BYTES = 32;
const OWNER_ONLY = 0o600;

/** Read the secret, creating it on first start. Throws when the file exists but is not a secret. */
export async function loadOrCreateSecret(storage: PluginStorage, logger: Logger): Promise<Buffer> {
  const existing = await storage.readFile(SECRET_FILE);
  if (existing === undefined) {
    const secret = randomBytes(SECRET_BYTES);
    await storage.writeFileAtomic(SECRET_FILE, `${secret.toString('base64url')}\n`, {
      mode: OWNER_ONLY,
    });
    logger.info('created a new JWT signing secret', { file: storage.path(SECRET_FILE) });
    return secret;
  }
  const secret = Buffer.from(existing.toString('utf8').trim(), 'base64url');
  if (secret.length < SECRET_BYTES) {
    throw new Error(
      `the JWT secret file ${storage.path(SECRET_FILE)} does not hold a ${SECRET_BYTES * 8}-bit ` +
        'base64url secret; delete it to create a new one (every user signs in again)',
    );
  }
  await tightenMode(storage.path(SECRET_FILE), logger);
  return secret;
}

/** A secret someone made readable to others is put back to 0600, with a warning. */
async function tightenMode(file: string, logger: Logger): Promise<void> {
  const mode = (await stat(file)).mode & 0o777;
  if (mode === OWNER_ONLY) return;
  await chmod(file, OWNER_ONLY);
  logger.warn('the JWT secret file had loose permissions; set to 0600', {
    file,
    previous_mode: mode.toString(8),
  });
}
