/**
 * Changes you can see before they happen and undo after: POST /config/preview (what POST /config
 * would do, computed by the plan the apply path runs), the history of persisted versions, and
 * rollback to one of them through the same path as any change.
 */
import {
  defineRoute,
  ErrorBody,
  derivedFromStack,
  NotFoundError,
  redactConfig,
  StaleConfigError,
  type JsonRecord,
  type StackConfig,
} from '../../../sdk/index.js';
import type { ConfigApplier } from '../supervision/config-apply.js';
import {
  ChangePreview,
  HistoryList,
  RollbackBody,
  RollbackResult,
  StaleGeneration,
  VersionDetail,
  VersionParams,
} from '../config-model/config-change-schemas.js';
import { ConfigUpdateBody } from '../config-model/config-schemas.js';
import { prepareUpdate, previewPrepared } from '../config-model/config-updates.js';
import { historyKeepOf } from '../config-model/history-keep.js';
import { changeOptions, staleReply } from './config-routes.js';
import { CONFIG_VERSION_NOT_FOUND } from '../errors.js';

/** What these routes need: the document and the planner of the apply path. */
export interface ConfigChangeContext {
  readonly stack: StackConfig;
  readonly applier: ConfigApplier;
}

const TAGS = ['config'];

function previewOf(
  ctx: ConfigChangeContext,
  previous: JsonRecord,
  candidate: JsonRecord,
): ChangePreview {
  const plan = ctx.applier.plan(previous, candidate);
  return {
    generation: ctx.stack.generation,
    diff: [...plan.diff],
    processes: plan.processes.map((effect) => ({ ...effect, fields: [...effect.fields] })),
    order: [...plan.order],
    warnings: [...plan.warnings],
  };
}

export function previewConfigRoute(ctx: ConfigChangeContext) {
  return defineRoute({
    method: 'POST',
    path: '/config/preview',
    summary: 'What POST /config would do, without doing it',
    description:
      'Takes exactly the body of POST /config and changes nothing. Answers the field-level diff ' +
      '(secrets as changed, never their values), per process what would happen and why ' +
      '(restart naming the fields that force it, start, stop, reload_free, nothing), the fan-out ' +
      'to dependents of a restarted process whose block sets `restart_dependents`, and the order ' +
      'of the steps. The same plan is what POST /config then runs; the same 422s as POST /config.',
    tags: TAGS,
    schema: { body: ConfigUpdateBody, response: { 200: ChangePreview, 404: ErrorBody } },
    handler: async ({ body }) => {
      const { previous, candidate } = await previewPrepared(
        ctx.stack,
        prepareUpdate(ctx.stack, body),
      );
      return previewOf(ctx, previous, candidate);
    },
  });
}

export function historyRoute(ctx: ConfigChangeContext) {
  // A copy of the whole document per request to read one number: at a thousand processes that
  // copy was most of the route's cost.
  const keep = derivedFromStack(ctx.stack, historyKeepOf);
  return defineRoute({
    method: 'GET',
    path: '/config/history',
    summary: 'Persisted versions of the configuration, newest first',
    description:
      'Every write of the file (POST /config with persist, a rollback, the file edited on disk, ' +
      'a plugin saving its slice) is a version: who, when, why and the field diff (secrets ' +
      'redacted). The newest `stackd.config_history.keep` (default 50) are kept, across restarts.',
    tags: TAGS,
    schema: { response: HistoryList },
    handler: async () => ({
      keep: keep(),
      versions: (await ctx.stack.history()).map((entry) => ({ ...entry, diff: [...entry.diff] })),
    }),
  });
}

export function historyVersionRoute(ctx: ConfigChangeContext) {
  return defineRoute({
    method: 'GET',
    path: '/config/history/:version',
    summary: 'One version: its change and the whole document then (secrets redacted)',
    tags: TAGS,
    schema: { params: VersionParams, response: { 200: VersionDetail, 404: ErrorBody } },
    handler: async ({ params }) => {
      const summary = (await ctx.stack.history()).find((entry) => entry.version === params.version);
      const document = await ctx.stack.versionDocument(params.version);
      if (summary === undefined || document === undefined) throw versionNotFound(params.version);
      return { ...summary, diff: [...summary.diff], document: redactConfig(document) };
    },
  });
}

function versionNotFound(version: number): NotFoundError {
  return new NotFoundError(CONFIG_VERSION_NOT_FOUND, `Version ${version} is not kept`, {
    field: 'version',
  });
}

export function rollbackRoute(ctx: ConfigChangeContext) {
  return defineRoute({
    method: 'POST',
    path: '/config/rollback',
    summary: 'Restore the document as it was at a version (dry_run previews)',
    description:
      'Restores the whole document of that version (it does not undo that version alone), ' +
      'validated and applied like any change and persisted as a new version. With dry_run the ' +
      'answer is the preview of the rollback. `If-Match` is honoured as by POST /config.',
    tags: TAGS,
    schema: {
      body: RollbackBody,
      response: { 200: RollbackResult, 404: ErrorBody, 412: StaleGeneration },
    },
    handler: async (request) => {
      const { body } = request;
      const document = await ctx.stack.versionDocument(body.version);
      if (document === undefined) throw versionNotFound(body.version);
      const restore = (): JsonRecord => structuredClone(document);
      if (body.dry_run) {
        const before = ctx.stack.read();
        const plan = previewOf(ctx, before, await ctx.stack.preview(restore));
        return {
          status: 'dry_run' as const,
          restored: body.version,
          generation: plan.generation,
          plan,
        };
      }
      let plan: ChangePreview | undefined;
      try {
        await ctx.stack.update(
          (draft) => {
            plan = previewOf(ctx, draft, document);
            return restore();
          },
          {
            ...changeOptions(request, body.reason ?? `rollback to version ${body.version}`),
            persist: true,
            apply: true,
          },
        );
      } catch (error) {
        if (error instanceof StaleConfigError) return staleReply(error);
        throw error;
      }
      const empty: ChangePreview = {
        generation: ctx.stack.generation,
        diff: [],
        processes: [],
        order: [],
        warnings: [],
      };
      return {
        status: 'ok' as const,
        restored: body.version,
        generation: ctx.stack.generation,
        plan: plan ?? empty,
      };
    },
  });
}
