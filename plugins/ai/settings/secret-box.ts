/** AES-256-GCM for API keys at rest; the key lives in `<data-dir>/ai-diagnostics/secret.key` (0600). */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { PluginStorage } from '../../../sdk/index.js';

const KEY_FILE = 'secret.key';

/** Encrypts and decrypts short secrets with the plugin's own key. */
export class SecretBox {
  private constructor(private readonly key: Buffer) {}

  /** Load the key, creating it on first use. */
  static async open(storage: PluginStorage): Promise<SecretBox> {
    let key = await storage.readFile(KEY_FILE);
    if (key === undefined || key.length !== 32) {
      key = randomBytes(32);
      await storage.writeFileAtomic(KEY_FILE, key, { mode: 0o600 });
    }
    return new SecretBox(key);
  }

  encrypt(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return [iv, cipher.getAuthTag(), body].map((part) => part.toString('base64')).join('.');
  }

  decrypt(sealed: string): string {
    const [iv, tag, body] = sealed.split('.').map((part) => Buffer.from(part, 'base64'));
    if (iv === undefined || tag === undefined || body === undefined) return '';
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, iv);
      decipher.setAuthTag(tag);
      return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
    } catch {
      return '';
    }
  }
}
