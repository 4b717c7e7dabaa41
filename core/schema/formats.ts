/** String formats used by our schemas. TypeBox registers none by itself. */
import { FormatRegistry } from '@sinclair/typebox';

const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function isUri(value: string): boolean {
  try {
    return new URL(value).protocol.length > 1;
  } catch {
    return false;
  }
}

/** Register every format once per process (idempotent). */
export function registerFormats(): void {
  const formats: Record<string, (value: string) => boolean> = {
    'date-time': (value) => DATE_TIME.test(value) && !Number.isNaN(Date.parse(value)),
    date: (value) => DATE.test(value) && !Number.isNaN(Date.parse(value)),
    email: (value) => EMAIL.test(value),
    uuid: (value) => UUID.test(value),
    uri: isUri,
  };
  for (const [name, check] of Object.entries(formats)) {
    if (!FormatRegistry.Has(name)) FormatRegistry.Set(name, check);
  }
}
