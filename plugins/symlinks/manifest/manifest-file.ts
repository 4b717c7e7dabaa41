/**
 * Manifest files: written as a stream into a temp file beside the target, fsync'd, then renamed
 * over it (a crash leaves the old manifest or the new, never half of one; a million entries
 * never sit in memory), and read back with the nesting limit for untrusted JSON.
 */
import { randomBytes } from 'node:crypto';
import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { BadRequestError, isoTime, NotFoundError, parseBoundedJson } from '../../../sdk/index.js';
import {
  SYMLINK_MANIFEST_INVALID,
  SYMLINK_MANIFEST_NOT_FOUND,
  SYMLINK_MANIFEST_UNREADABLE,
} from '../errors.js';

/** The reference's timestamp format: ISO UTC with microseconds and `Z`. */
export function manifestTimestamp(date = new Date()): string {
  return isoTime(date).replace(/\.(\d{3})Z$/, '.$1000Z');
}

/**
 * Writes `{...header, entries: [...]}` entry by entry. A write stream reports a failed write
 * (a full disk) as an 'error' event after the write call returned: without a listener that
 * event is an uncaught exception that stops the host. Every error is kept here and fails the
 * next write, the wait for 'drain' and the commit, so it reaches the job that wrote.
 */
export class ManifestWriter {
  private readonly temp: string;
  private stream: WriteStream | undefined;
  private count = 0;
  private failure: Error | undefined;
  private readonly waiting = new Set<(error: Error) => void>();

  private constructor(readonly path: string) {
    this.temp = join(
      dirname(path),
      `.${basename(path)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`,
    );
  }

  /** Open the temp file and write the header (every field but `entries`). */
  static async open(path: string, header: Record<string, unknown>): Promise<ManifestWriter> {
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    const writer = new ManifestWriter(path);
    const stream = createWriteStream(writer.temp, { mode: 0o600, flags: 'wx' });
    stream.on('error', (error) => {
      writer.failure ??= error;
      for (const fail of writer.waiting) fail(error);
    });
    writer.stream = stream;
    const head = JSON.stringify(header, null, 2);
    await writer.write(`${head.slice(0, -2)},\n  "entries": [`);
    return writer;
  }

  /** Append one entry. */
  async add(entry: Record<string, unknown>): Promise<void> {
    await this.write(`${this.count === 0 ? '\n' : ',\n'}    ${JSON.stringify(entry)}`);
    this.count += 1;
  }

  /** Close, fsync and rename into place. */
  async commit(): Promise<void> {
    await this.write(this.count === 0 ? ']\n}\n' : '\n  ]\n}\n');
    await this.settle((done) => this.stream?.end(done));
    const handle = await open(this.temp, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(this.temp, this.path);
  }

  /** Drop the temp file (a failed run). */
  async abort(): Promise<void> {
    this.stream?.destroy();
    await rm(this.temp, { force: true });
  }

  private write(text: string): Promise<void> {
    const stream = this.stream;
    if (stream === undefined) return Promise.reject(new Error('manifest writer not open'));
    return this.settle((done) => {
      if (stream.write(text)) done();
      else stream.once('drain', () => done());
    });
  }

  /** Run `start` and wait for it to call back, failing at once on a stream error (kept or new). */
  private settle(start: (done: (error?: Error | null) => void) => void): Promise<void> {
    return new Promise((resolve, reject) => {
      const fail = (error: Error): void => {
        this.waiting.delete(fail);
        reject(error);
      };
      if (this.failure !== undefined) return fail(this.failure);
      this.waiting.add(fail);
      start((error) => {
        this.waiting.delete(fail);
        const failed = error ?? this.failure;
        if (failed) reject(failed);
        else resolve();
      });
    });
  }
}

const NOT_A_FILE = new Set(['EISDIR', 'ENOTDIR', 'ENAMETOOLONG', 'ELOOP', 'EACCES', 'EINVAL']);

/** A manifest as restore and compare read it. */
export interface ManifestContent {
  readonly created_at: string | null;
  readonly entries: readonly unknown[];
}

/** Read a manifest: 404 when missing, 400 when it is not a manifest with an `entries` list. */
export async function readManifest(path: string): Promise<ManifestContent> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT')
      throw new NotFoundError(SYMLINK_MANIFEST_NOT_FOUND, 'Manifest does not exist', {
        field: 'manifest_path',
      });
    // The client named something that is no readable file: its mistake, not the host's.
    if (code !== undefined && NOT_A_FILE.has(code))
      throw new BadRequestError(
        SYMLINK_MANIFEST_UNREADABLE,
        `manifest_path does not name a readable manifest file (${code})`,
        { field: 'manifest_path' },
      );
    throw error;
  }
  const parsed = parseBoundedJson(text);
  const value = parsed.ok ? parsed.value : undefined;
  const entries = (value as { entries?: unknown } | undefined)?.entries;
  if (!Array.isArray(entries))
    throw new BadRequestError(
      SYMLINK_MANIFEST_INVALID,
      'Invalid manifest format: entries list is required.',
      { field: 'manifest_path' },
    );
  const createdAt = (value as { created_at?: unknown }).created_at;
  return { created_at: typeof createdAt === 'string' ? createdAt : null, entries };
}
