/** The configuration routes: read (secrets redacted), update, schemas, earlier-generation aliases. */
import { defineRoute, type Logger, type StackConfig } from '../../../sdk/index.js';
import { blockJsonSchema, documentJsonSchema } from '../config-model/block-schema.js';
import {
  ConfigDocument,
  ConfigQuery,
  ConfigSaveResponse,
  ConfigUpdateBody,
  ConfigUpdateResponse,
  ConfigValidateResponse,
  ProcessSchemaBody,
} from '../config-model/config-schemas.js';
import { redactConfig } from '../../../sdk/index.js';
import {
  findEntryOrThrow,
  updateDocument,
  updateProcessBlock,
} from '../config-model/config-updates.js';
import { validateDocument } from '../config-model/config-validation.js';
import { withViews } from '../config-model/config-views.js';

/** What the configuration routes need from the supervisor. */
export interface ConfigRouteDeps {
  /** Called after a process-scoped update (old name; and the new one when it was renamed). */
  onProcessBlockChanged?(processName: string): void;
}

/** The plugin context parts the routes use: the document and the log. */
export interface ConfigRouteContext {
  readonly stack: StackConfig;
  readonly logger: Logger;
}

const TAGS = ['config'];

export function getConfigRoute(ctx: ConfigRouteContext) {
  return defineRoute({
    method: 'GET',
    path: '/config',
    summary: 'The in-memory configuration (secrets redacted)',
    description:
      'The whole document, or with process_name only that block. Secrets are write-only: API ' +
      'keys, tokens, passwords, secrets, cookies, webhook and notification URLs and header values ' +
      'show as "[REDACTED]", credentials inside URLs as `***`.',
    tags: TAGS,
    schema: { query: ConfigQuery, response: ConfigDocument },
    handler: ({ query }) => {
      const document = ctx.stack.read();
      if (query.process_name === undefined)
        return redactConfig(withViews(document, ctx.stack.views()));
      const entry = findEntryOrThrow(document, query.process_name);
      return redactConfig(entry.block, entry.path);
    },
  });
}

export function updateConfigRoute(ctx: ConfigRouteContext, deps: ConfigRouteDeps) {
  return defineRoute({
    method: 'POST',
    path: '/config',
    summary: 'Change the configuration (one process block, or a global deep merge)',
    description:
      "With process_name: the keys of `updates` replace the block's keys, the merged block is " +
      'validated against the block schema (known fields typed, unknown fields kept), and with ' +
      'persist only that block is written to the file. Without process_name: `updates` is ' +
      'deep-merged into the document, the whole document is validated, and with persist the ' +
      'document is written. A rejected update changes nothing (422 naming the field, e.g. ' +
      '`updates.port`); the file is written atomically. A full configuration object (the earlier ' +
      'generation of this path) is a global update.',
    tags: TAGS,
    schema: { body: ConfigUpdateBody, response: ConfigUpdateResponse },
    handler: async ({ body, principal }) => {
      const by = principal === null ? {} : { by: principal.username };
      if (body.process_name === undefined)
        return updateDocument(ctx.stack, { updates: body.updates, persist: body.persist, ...by });
      const { result, newName } = await updateProcessBlock(ctx.stack, {
        processName: body.process_name,
        updates: body.updates,
        persist: body.persist,
        ...by,
      });
      notifyChanged(ctx, deps, result.process_name ?? newName);
      if (newName !== result.process_name) notifyChanged(ctx, deps, newName);
      return result;
    },
  });
}

export function configSchemaRoute(ctx: ConfigRouteContext) {
  return defineRoute({
    method: 'GET',
    path: '/config/schema',
    summary: 'The JSON schema the configuration is validated against',
    tags: TAGS,
    schema: { response: ConfigDocument },
    handler: () => documentJsonSchema(ctx.stack.sliceSchemas()),
  });
}

export function processConfigSchemaRoute(ctx: ConfigRouteContext) {
  return defineRoute({
    method: 'POST',
    path: '/config/process-config/schema',
    summary: "The schema of one process's block",
    tags: TAGS,
    schema: { body: ProcessSchemaBody, response: ConfigDocument },
    handler: ({ body }) =>
      blockJsonSchema(findEntryOrThrow(ctx.stack.read(), body.process_name).self),
  });
}

export function saveConfigRoute(ctx: ConfigRouteContext) {
  return defineRoute({
    method: 'POST',
    path: '/config/save',
    summary: 'Save the in-memory configuration to the file (earlier generation)',
    description: 'Deprecated: use POST /config with persist true.',
    tags: TAGS,
    deprecated: true,
    schema: { response: ConfigSaveResponse },
    handler: async () => {
      await ctx.stack.save();
      return { status: 'saved' as const, path: ctx.stack.filePath };
    },
  });
}

export function validateConfigRoute() {
  return defineRoute({
    method: 'POST',
    path: '/config/validate',
    summary: 'Validate a full configuration without applying it (earlier generation)',
    description: 'Deprecated. Every problem is listed (up to 50), each with its dotted field path.',
    tags: TAGS,
    deprecated: true,
    schema: { body: ConfigDocument, response: ConfigValidateResponse },
    handler: ({ body }) => {
      const errors = validateDocument(body).map((failure) => ({
        field: failure.path.join('.'),
        message: failure.message,
      }));
      return { valid: errors.length === 0, errors };
    },
  });
}

function notifyChanged(ctx: ConfigRouteContext, deps: ConfigRouteDeps, name: string): void {
  try {
    deps.onProcessBlockChanged?.(name);
  } catch (error) {
    ctx.logger.error(`config: reacting to the change of '${name}' failed`, { error });
  }
}
