/**
 * Module resolve hooks (registered with `module.register`): a plugin that imports `stackd/sdk`
 * gets the sdk of the host running it, wherever the plugin's file sits and whether or not a
 * `stackd` package is installed beside it. One sdk copy means one set of error classes and
 * helpers, so `instanceof` checks between host and plugin hold.
 */

/** Data passed from `module.register`: bare specifier → file URL in the running package. */
export interface SdkHookData {
  readonly targets: Readonly<Record<string, string>>;
}

interface ResolveResult {
  readonly url: string;
  readonly shortCircuit?: boolean;
}

type NextResolve = (specifier: string, context: unknown) => Promise<ResolveResult>;

let targets: Readonly<Record<string, string>> = {};

/** Called once by Node with the data given to `module.register`. */
export function initialize(data: SdkHookData): void {
  targets = data.targets;
}

/** Map the host's own specifiers; everything else resolves as usual. */
export async function resolve(
  specifier: string,
  context: unknown,
  nextResolve: NextResolve,
): Promise<ResolveResult> {
  const target = targets[specifier];
  if (target !== undefined) return { url: target, shortCircuit: true };
  return nextResolve(specifier, context);
}
