/** A server-sent events client for tests: reads `id:`/`data:` records as they arrive. */

/** One received record. */
export interface SseRecord {
  readonly id: string | undefined;
  readonly data: string;
}

/** An open SSE response. */
export interface SseClient {
  readonly status: number;
  readonly contentType: string | null;
  readonly records: SseRecord[];
  /** Stop reading and drop the connection. */
  close(): void;
}

/** Open `GET url` with `Accept: text/event-stream` and collect records in the background. */
export async function openEventStream(
  url: string,
  headers: Readonly<Record<string, string>> = {},
): Promise<SseClient> {
  const abort = new AbortController();
  const response = await fetch(url, {
    headers: { accept: 'text/event-stream', ...headers },
    signal: abort.signal,
  });
  const records: SseRecord[] = [];
  const client: SseClient = {
    status: response.status,
    contentType: response.headers.get('content-type'),
    records,
    close: () => abort.abort(),
  };
  if (response.body === null) return client;
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  void (async () => {
    let buffer = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buffer += value;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const record = parseBlock(block);
          if (record !== undefined) records.push(record);
        }
      }
    } catch {
      // aborted by close()
    }
  })();
  return client;
}

function parseBlock(block: string): SseRecord | undefined {
  let id: string | undefined;
  const data: string[] = [];
  for (const line of block.split('\n')) {
    if (line.startsWith('id: ')) id = line.slice(4);
    else if (line.startsWith('data: ')) data.push(line.slice(6));
  }
  return data.length === 0 ? undefined : { id, data: data.join('\n') };
}
