/** The configuration routes: read (secrets redacted), update, schemas, earlier-generation aliases. */
import {
  defineRoute,
  ErrorBody,
  reply,
  StaleConfigError,
  type HandlerRequest,
  type Logger,
  type StackConfig,
} from '../../../sdk/index.js';
import { StaleGeneration } from '../config-model/config-change-schemas.js';
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
import { derivedFromStack, redactConfig } from '../../../sdk/index.js';
import { applyPrepared, findEntryOrThrow, prepareUpdate } from '../config-model/config-updates.js';
import { validateDocument } from '../config-model/config-validation.js';
import { withViews } from '../config-model/config-views.js';
import { CONFIG_STALE } from '../errors.js';

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
  // Shared until the document changes, read-only: redaction (and the views) copy what they show,
  // and a copy of the whole document per request was most of the route's cost at a thousand
  // processes.
  const shared = derivedFromStack(ctx.stack, (document) => document);
  return defineRoute({
    method: 'GET',
    path: '/config',
    summary: 'The in-memory configuration (secrets redacted)',
    description:
      'The whole document, or with process_name only that block. Secrets are write-only: API ' +
      'keys, tokens, passwords, secrets, cookies, webhook and notification URLs and header values ' +
      'show as "[REDACTED]", credentials inside URLs as `***`.',
    tags: TAGS,
    schema: { query: ConfigQuery, response: { 200: ConfigDocument, 404: ErrorBody } },
    handler: ({ query }) => {
      const document = shared();
      const headers = { etag: etagOf(ctx.stack.generation) };
      if (query.process_name === undefined)
        return reply(200, redactConfig(withViews(document, ctx.stack.views())), headers);
      const entry = findEntryOrThrow(document, query.process_name);
      return reply(200, redactConfig(entry.block, entry.path), headers);
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
    schema: {
      body: ConfigUpdateBody,
      response: { 200: ConfigUpdateResponse, 404: ErrorBody, 412: StaleGeneration },
    },
    handler: async (request) => {
      const { body } = request;
      const prepared = prepareUpdate(ctx.stack, body);
      let result;
      try {
        result = await applyPrepared(ctx.stack, prepared, {
          ...changeOptions(request, body.reason),
          apply: true,
        });
      } catch (error) {
        if (error instanceof StaleConfigError) return staleReply(error);
        throw error;
      }
      if (result.process_name !== null) {
        const newName = prepared.newName() ?? result.process_name;
        notifyChanged(ctx, deps, result.process_name);
        if (newName !== result.process_name) notifyChanged(ctx, deps, newName);
      }
      return reply(200, result, { etag: etagOf(ctx.stack.generation) });
    },
  });
}

/** An ETag of a generation. */
export function etagOf(generation: number): string {
  return `"${generation}"`;
}

/** The generation an `If-Match` names: undefined without one (or `*`), NaN when unreadable. */
export function ifMatchGeneration(headers: Readonly<Record<string, string>>): number | undefined {
  const raw = headers['if-match']?.trim();
  if (raw === undefined || raw === '' || raw === '*') return undefined;
  const match = /^(?:W\/)?"?(\d+)"?$/.exec(raw);
  return match?.[1] === undefined ? Number.NaN : Number(match[1]);
}

/** Who asks, why, and the generation they saw: the options every user change carries. */
export function changeOptions(
  request: Pick<HandlerRequest, 'headers' | 'principal'>,
  reason: string | undefined,
): { actor: string; by?: string; reason?: string; expectGeneration?: number } {
  const expected = ifMatchGeneration(request.headers);
  const username = request.principal?.username;
  return {
    actor: username ?? 'api',
    // The journal's config.changed names the signed-in user behind the change.
    ...(username === undefined ? {} : { by: username }),
    ...(reason === undefined ? {} : { reason }),
    ...(expected === undefined ? {} : { expectGeneration: expected }),
  };
}

/** 412 with the current generation, in the ETag header and the body. */
export function staleReply(error: StaleConfigError) {
  return reply(
    412,
    { detail: error.message, code: CONFIG_STALE, generation: error.current },
    { etag: etagOf(error.current) },
  );
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
    schema: { body: ProcessSchemaBody, response: { 200: ConfigDocument, 404: ErrorBody } },
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
