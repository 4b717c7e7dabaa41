/**
 * The ai plugin's config slice (`stackd.ai`). Provider profiles and keys are not here: they are
 * secrets kept encrypted in the plugin's own storage and edited through its settings routes, so
 * they never land in a file users copy around. The slice holds what an operator sets once. Core
 * checks it against AiConfig at boot and on every update (a 422 naming the field).
 */
import { HOST_SECTION, Type, isJsonRecord, type JsonRecord, type Static } from '../../sdk/index.js';

export const AiConfig = Type.Object({
  docs_dir: Type.Optional(
    Type.String({
      minLength: 1,
      description:
        'A Markdown tree (its root holds index.md) whose pages a diagnosis sends as documentation ' +
        "context. Default: the STACKD_AI_DOCS_DIR environment variable, else stackd's README.",
    }),
  ),
});
export type AiConfig = Static<typeof AiConfig>;

function sliceOf(document: Readonly<JsonRecord>): unknown {
  const host = document[HOST_SECTION];
  return isJsonRecord(host) ? host.ai : undefined;
}

/**
 * The documentation tree a diagnosis reads now: the current document's `stackd.ai.docs_dir`
 * (a change applies to the next diagnosis), else the environment's.
 */
export function docsDirOf(
  document: Readonly<JsonRecord>,
  environment: NodeJS.ProcessEnv = process.env,
): string | undefined {
  const slice = sliceOf(document);
  if (isJsonRecord(slice) && typeof slice.docs_dir === 'string' && slice.docs_dir !== '')
    return slice.docs_dir;
  return environment.STACKD_AI_DOCS_DIR;
}
