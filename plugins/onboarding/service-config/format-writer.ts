/**
 * The other direction of config-formats.ts: the parsed structure the read answer gives back
 * as file text, for clients that edit the structure (the DUMB dashboard sends the edited object,
 * not text). Python files are only ever replaced as text.
 */
import { InputError, type ServiceConfigFormat } from '../../../sdk/index.js';
import { loadFormatParsers } from './config-formats.js';
import { SERVICE_CONFIG_INVALID } from '../errors.js';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function confText(value: Record<string, unknown>): string {
  const lines: string[] = [];
  const plain = (section: unknown): void => {
    if (!isRecord(section)) return;
    for (const [key, item] of Object.entries(section))
      lines.push(`${key} = ${typeof item === 'string' ? item : JSON.stringify(item)}`);
  };
  plain(value['']);
  for (const [name, section] of Object.entries(value)) {
    if (name === '') continue;
    if (lines.length > 0) lines.push('');
    lines.push(`[${name}]`);
    plain(section);
  }
  return `${lines.join('\n')}\n`;
}

/** File text for a structure in `format`; 422 naming `updates` when it cannot be written. */
export async function structureToText(
  format: ServiceConfigFormat,
  value: unknown,
): Promise<string> {
  switch (format) {
    case 'json':
      return `${JSON.stringify(value, null, 2)}\n`;
    case 'yaml': {
      await loadFormatParsers();
      const yaml = await import('yaml');
      return yaml.stringify(value);
    }
    case 'xml': {
      const { XMLBuilder } = await import('fast-xml-parser');
      return new XMLBuilder({
        ignoreAttributes: false,
        attributeNamePrefix: '@',
        format: true,
      }).build(value);
    }
    case 'conf':
      if (!isRecord(value))
        throw new InputError(SERVICE_CONFIG_INVALID, 'updates must be an object of sections', {
          field: 'updates',
        });
      return confText(value);
    case 'python':
      throw new InputError(
        SERVICE_CONFIG_INVALID,
        'A Python config file can only be replaced as text: send updates as a string',
        { field: 'updates' },
      );
  }
}
